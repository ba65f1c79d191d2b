package lab

import (
	"context"
	"io"

	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
)

// Play is a cell's faults opened for a load the caller runs itself rather
// than through Measure (workloads/safety's points): the same delay line,
// proxies, schedule and servers Measure plays them with.
type Play struct{ fr *faultRun }

// Play opens cfg.Faults on the lab's servers (cfg.Driver.Backend says which
// servers masters=N names) and returns the endpoints the backend's client
// must dial: through the delay line or the proxies where a fault needs
// them. Stop releases what it opened, also when Start was never called.
func (l *Lab) Play(cfg Config, log io.Writer) (*Play, backends.Endpoints, error) {
	fr, masters, err := l.openFaults(cfg, log)
	if err != nil {
		return nil, backends.Endpoints{}, err
	}
	at := l.Endpoints()
	at.Masters = masters
	if err := fr.route(&at); err != nil {
		fr.finish(nil)
		return nil, backends.Endpoints{}, err
	}
	return &Play{fr: fr}, at, nil
}

// Start begins the schedule; times in the specs count from now.
func (p *Play) Start(ctx context.Context) { p.fr.start(ctx) }

// Stop ends the schedule (healing what is still broken, as Measure's end
// does), closes the delay line and proxies, and returns the events played.
func (p *Play) Stop() []faults.Event {
	if p.fr == nil || p.fr.done {
		return nil
	}
	var events []faults.Event
	if p.fr.sched != nil {
		events = p.fr.sched.Stop()
	}
	p.fr.finish(nil)
	return events
}
