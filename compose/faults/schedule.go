package faults

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/delayline"
)

// Target is what faults are played against.
type Target struct {
	// Servers are the local servers --fault masters=N names (Redis masters,
	// etcd members, ZooKeeper, PostgreSQL; see Pick), in order; nil when
	// they are external.
	Servers []server
	// Proxies stand in front of the masters; nil unless a partition or a
	// reset was asked for.
	Proxies *compose.Proxies
	// Line is the delay line in front of the masters (and of Proxies);
	// nil unless a distance or a latency fault was asked for.
	Line faultLine
	// Distances are each master's distance on Line, what a healed latency
	// fault restores; nil is no distance.
	Distances []delayline.Distance
	// Stall makes worker (0-based) stall for d inside its next critical
	// section: pause-client. nil when the run has no such fault.
	Stall func(worker int, d time.Duration)
	// DropRelease loses the next release: drop-release. nil when the run
	// has no such fault.
	DropRelease func()
	// TTL resolves ttl-relative durations.
	TTL time.Duration
	// Log, if set, gets one line per event.
	Log io.Writer
}

// Event is one thing a schedule did, for the run's JSON.
type Event struct {
	AtMS   float64 `json:"at_ms"` // since the schedule started
	Fault  string  `json:"fault"`
	Action string  `json:"action"`           // kill, restart (spawned), ready (answers PING), stop, resume, inject, heal, jump, jump-back, drift, drift-end, stall, drop-release
	Master int     `json:"master,omitempty"` // 1-based
	Worker int     `json:"worker,omitempty"` // 1-based, pause-client
	Err    string  `json:"error,omitempty"`
}

// Schedule plays faults on their own timers. Stop ends it and heals what is
// still broken (a paused master resumes, a toxic goes), except a master
// killed without restart or whose delayed restart had not come yet.
type Schedule struct {
	t      Target
	start  time.Time
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	events []Event
}

// restartTimeout bounds one master's restart.
const restartTimeout = 10 * time.Second

// Start begins playing fs against t; times count from now.
func Start(ctx context.Context, fs []Fault, t Target) *Schedule {
	ctx, cancel := context.WithCancel(ctx)
	s := &Schedule{t: t, start: time.Now(), cancel: cancel}
	for i, f := range fs {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.play(ctx, i, f)
		}()
	}
	return s
}

// Stop cancels what has not happened, heals what is active, and returns
// every event in time order.
func (s *Schedule) Stop() []Event {
	s.cancel()
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.events
}

// Events is a copy of what has happened so far.
func (s *Schedule) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Event(nil), s.events...)
}

func (s *Schedule) record(f Fault, action string, master int, err error) {
	s.recordEvent(f, Event{Action: action, Master: master}, err)
}

func (s *Schedule) recordEvent(f Fault, e Event, err error) {
	e.AtMS, e.Fault = float64(time.Since(s.start).Microseconds())/1e3, f.Spec
	if err != nil {
		e.Err = err.Error()
	}
	// Events of several masters and faults are recorded at once; the log
	// is written under the same lock, so a writer that is not safe for
	// concurrent use (a bytes.Buffer) gets whole lines in event order.
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, e)
	if s.t.Log != nil {
		msg := ""
		if err != nil {
			msg = ": " + err.Error()
		}
		who := fmt.Sprintf("master %d", e.Master)
		switch {
		case e.Worker > 0:
			who = fmt.Sprintf("worker %d", e.Worker)
		case e.Master == 0:
			who = "(the next release)"
		}
		fmt.Fprintf(s.t.Log, "lockbench: fault %s at %.3fs: %s %s%s\n", f.Kind, e.AtMS/1e3, e.Action, who, msg)
	}
}

// wait sleeps d; false when ctx ended first.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// hold waits for the fault's for= duration; 0 waits until the run ends.
func (s *Schedule) hold(ctx context.Context, f Fault) {
	d := f.For.Resolve(s.t.TTL)
	if d <= 0 {
		<-ctx.Done()
		return
	}
	wait(ctx, d)
}

func (s *Schedule) play(ctx context.Context, idx int, f Fault) {
	if !wait(ctx, f.At.Resolve(s.t.TTL)) {
		return
	}
	switch f.Kind {
	case kindKill:
		s.kill(ctx, f)
	case stop:
		s.each(f, "stop", func(srv server, _ int) error { return srv.Pause() })
		s.hold(ctx, f)
		s.each(f, "resume", func(srv server, _ int) error { return srv.Resume() })
	case PauseClient:
		d := f.For.Resolve(s.t.TTL)
		for _, w := range f.Workers {
			var err error
			if s.t.Stall == nil {
				err = errors.New("the run has no stall hook")
			} else {
				s.t.Stall(w-1, d)
			}
			// armed: the worker stalls inside its next critical section
			s.recordEvent(f, Event{Action: "stall", Worker: w}, err)
		}
	case DropRelease:
		var err error
		if s.t.DropRelease == nil {
			err = errors.New("the run has no release hook")
		} else {
			s.t.DropRelease() // armed: the next release is lost
		}
		s.recordEvent(f, Event{Action: "drop-release"}, err)
	case ClockJump:
		s.each(f, "jump", func(srv server, _ int) error { return jumpClock(srv, f.Jump) })
		if f.For.Resolve(s.t.TTL) > 0 {
			s.hold(ctx, f)
			s.each(f, "jump-back", func(srv server, _ int) error { return jumpClock(srv, -f.Jump) })
		}
	case ClockDrift:
		s.drift(ctx, f)
	case Latency:
		s.latency(ctx, f)
	default:
		name := fmt.Sprintf("lockbench-%d-%s", idx, f.Kind)
		tox := toxicFor(f, name)
		s.eachProxy(f, "inject", func(i int) error { return s.t.Proxies.AddToxic(i, tox) })
		s.hold(ctx, f)
		s.eachProxy(f, "heal", func(i int) error { return s.t.Proxies.RemoveToxic(i, name) })
	}
}

func (s *Schedule) kill(ctx context.Context, f Fault) {
	s.each(f, "kill", func(srv server, _ int) error { return srv.Kill() })
	switch f.Restart {
	case restartNever:
		return
	case restartDelayed:
		if !wait(ctx, f.Delay.Resolve(s.t.TTL)) {
			return // the run ended first: the master stays down
		}
	}
	// Restarts run to completion even when the run is ending, so a master is
	// never left half-started.
	// "restart" is when the process is spawned (it may take connections
	// at once), "ready" when it has answered PING.
	s.each(f, "ready", func(srv server, m int) error {
		s.record(f, "restart", m, nil)
		rctx, cancel := context.WithTimeout(context.Background(), restartTimeout)
		defer cancel()
		return srv.Start(rctx)
	})
}

// driftStep is how often a drifting clock is moved: a rate is played as
// a step of rate × driftStep each time (0.1 ms at 1 %).
const driftStep = 10 * time.Millisecond

// drift runs f's masters' clocks at f.Rate from now until for= ends (or
// the run): every driftStep each jumps by what the rate has gained since
// the last step, so a jump played beside it adds to it. The clocks keep
// what they gained.
func (s *Schedule) drift(ctx context.Context, f Fault) {
	s.each(f, "drift", func(srv server, _ int) error { return jumpClock(srv, 0) })
	end := f.For.Resolve(s.t.TTL)
	t := time.NewTicker(driftStep)
	defer t.Stop()
	start := time.Now()
	var gained time.Duration
	failed := map[int]bool{}
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case <-t.C:
		}
		el := time.Since(start)
		if end > 0 && el >= end {
			el, done = end, true
		}
		want := time.Duration(f.Rate * float64(el))
		step := want - gained
		gained = want
		for _, m := range f.Masters {
			if m > len(s.t.Servers) || failed[m] {
				continue
			}
			if err := jumpClock(s.t.Servers[m-1], step); err != nil {
				failed[m] = true
				s.record(f, "drift", m, err)
			}
		}
	}
	s.each(f, "drift-end", func(server, int) error { return nil })
}

func jumpClock(srv server, d time.Duration) error {
	c, ok := srv.(clocked)
	if !ok || c.Clock() == nil {
		return errors.New("master not started under clockshift")
	}
	return c.Clock().Jump(d)
}

// each applies fn to f's masters, concurrently so a majority dies (or comes
// back) at one instant, and records each result.
func (s *Schedule) each(f Fault, action string, fn func(server, int) error) {
	var wg sync.WaitGroup
	for _, m := range f.Masters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m > len(s.t.Servers) {
				s.record(f, action, m, fmt.Errorf("no local master %d", m))
				return
			}
			s.record(f, action, m, fn(s.t.Servers[m-1], m))
		}()
	}
	wg.Wait()
}

func (s *Schedule) eachProxy(f Fault, action string, fn func(int) error) {
	for _, m := range f.Masters {
		if s.t.Proxies == nil || m > s.t.Proxies.Len() {
			s.record(f, action, m, fmt.Errorf("no proxy for master %d", m))
			continue
		}
		s.record(f, action, m, fn(m-1))
	}
}

// toxicFor maps a partition or a reset on toxiproxy.
func toxicFor(f Fault, name string) compose.Toxic {
	switch f.Kind {
	case Partition: // requests vanish and nothing answers: a blackhole, not a refusal
		return compose.Toxic{Name: name, Type: "timeout", Stream: "upstream",
			Attributes: map[string]any{"timeout": 0}}
	}
	// reset: the next byte sent resets the connection
	return compose.Toxic{Name: name, Type: "reset_peer", Stream: "upstream",
		Attributes: map[string]any{"timeout": 0}}
}
