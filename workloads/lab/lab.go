package lab

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/redact"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"

	"golang.org/x/term"

	"github.com/lockbench/lockbench/compose"
)

// Lab is the servers one or more cells are measured on: local ones it
// started (stopped by Close, and with the process: parent-death signal) or
// external ones it dialed.
type Lab struct {
	Topo *compose.Topology
}

// Up starts (or dials) what spec asks for. With log non-nil the phase is
// told on it: "starting 5 redis masters… ready (120 ms)"; on a terminal the
// first half shows while the servers start, elsewhere (logs) the line is
// written whole once they are up, so a failure leaves only its error.
// Ctrl-C during start-up is ctx's cancellation: everything started is
// stopped again.
func Up(ctx context.Context, spec compose.Spec, log io.Writer) (*Lab, error) {
	if log == nil {
		topo, err := compose.Up(ctx, spec)
		err = fielderr.Within("topology", err)
		if err != nil {
			return nil, err
		}
		return &Lab{Topo: topo}, nil
	}
	tty := isTerminal(log)
	if tty {
		fmt.Fprintf(log, "%s… ", describe(spec))
	}
	start := time.Now()
	topo, err := compose.Up(ctx, spec)
	err = fielderr.Within("topology", err)
	switch {
	case err != nil && tty:
		fmt.Fprint(log, "\r\033[K")
	case err != nil:
	case tty:
		fmt.Fprintf(log, "ready (%d ms)\n", time.Since(start).Milliseconds())
	default:
		fmt.Fprintf(log, "%s… ready (%d ms)\n", describe(spec), time.Since(start).Milliseconds())
	}
	if err != nil {
		return nil, err
	}
	return &Lab{Topo: topo}, nil
}

// Close stops the servers the lab started.
func (l *Lab) Close() error {
	if l == nil || l.Topo == nil {
		return nil
	}
	return l.Topo.Close()
}

// isTerminal: w is a terminal (a live line may be rewritten in place).
func isTerminal(w io.Writer) bool {
	f, ok := redact.File(w)
	return ok && term.IsTerminal(int(f.Fd()))
}

// describe is the start-up phase's first half.
func describe(spec compose.Spec) string {
	var s string
	switch {
	case spec.NoRedis:
	case len(spec.RedisAddrs) > 0:
		s = fmt.Sprintf("dialing %d redis masters", len(spec.RedisAddrs))
	default:
		s = fmt.Sprintf("starting %d redis masters", spec.Redis.Masters)
	}
	if spec.NeedsEtcd {
		if s != "" {
			s += " and "
		}
		if len(spec.EtcdAddrs) > 0 {
			s += fmt.Sprintf("dialing %d etcd members", len(spec.EtcdAddrs))
		} else {
			s += fmt.Sprintf("starting %d etcd members", spec.Etcd.Members)
		}
	}
	if s == "" {
		s = "starting"
	}
	return s
}

// Versions adds the servers' own versions to v.
func (l *Lab) Versions(ctx context.Context, v map[string]string) map[string]string {
	topo := l.Topo
	if len(topo.Servers) > 0 {
		v["redis-server"] = topo.Servers[0].Version
	}
	if len(topo.EtcdAddrs) > 0 {
		if s, err := compose.EtcdVersion(ctx, topo.EtcdAddrs[0], topo.EtcdAccess); err == nil {
			v["etcd-server"] = s
		}
	}
	return v
}

// Servers adds the lab's servers' facts to list and, with log non-nil,
// tells their warnings once each, naming how many masters share one.
func (l *Lab) Servers(list []schema.Server, log io.Writer) []schema.Server {
	topo := l.Topo
	list = append(list, topo.Servers...)
	if log == nil {
		return list
	}
	count := map[string]int{}
	var order []string
	for _, s := range topo.Servers {
		for _, w := range s.Warnings {
			if count[w] == 0 {
				order = append(order, w)
			}
			count[w]++
		}
	}
	for _, w := range order {
		fmt.Fprintln(log, render.Hang("lockbench: warning:", fmt.Sprintf("%d of %d masters: %s", count[w], len(topo.Servers), w), render.TableWidth))
	}
	return list
}

// HostNoise probes the noise of the host the lab's servers run on for d,
// with nothing measured meanwhile (procstat.HostNoise).
func (l *Lab) HostNoise(ctx context.Context, d time.Duration) schema.HostNoise {
	return procstat.HostNoise(ctx, d)
}
