package safety

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Result is a sweep's points with the config that measured them.
type Result struct {
	Config Config `json:"config"`
	// Plan is the config's plan line (Config.Plan): the grid, its
	// estimated time and the skipped pairs.
	Plan    string    `json:"plan"`
	Started time.Time `json:"started"`
	Points  []Point   `json:"points"`
	// Interrupted: ctx ended the sweep; Points are those measured.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Run measures every point of c's grid on servers it starts for each
// fault and backend (workloads/lab, stopped again before the next; a
// fault that may leave a server down gets fresh ones each point), telling
// the plan and each point as it ends on log (nil: nothing). A ctx ended
// mid-sweep returns the points measured so far with Interrupted set, not
// an error.
func Run(ctx context.Context, c Config, log io.Writer) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	c = c.withDefaults()
	res := Result{Config: c, Plan: c.Plan(), Started: time.Now()}
	logf(log, "lockbench: %s\n", res.Plan)
	all := c.points()
	for len(all) > 0 {
		n := 1
		for n < len(all) && all[n].Fault == all[0].Fault && all[n].Backend == all[0].Backend {
			n++
		}
		group := all[:n]
		all = all[n:]
		points, err := runGroup(ctx, c, group, len(res.Points), log)
		res.Points = append(res.Points, points...)
		if ctx.Err() != nil {
			res.Interrupted = true
			return res, nil
		}
		if err != nil {
			return res, fmt.Errorf("%s %s: %w", group[0].Fault, group[0].Backend, err)
		}
	}
	return res, nil
}

// cell is the lab configuration of the points of fault f on backend b:
// its servers, the sweep's TTL, and etcd leases that are not kept alive (a
// paused process sends no keep-alives either, so its lease lapses as a
// Redlock key does).
func (c Config) cell(f fault, b backend) (lab.Config, error) {
	cfg := lab.DefaultConfig()
	cfg.Driver.Backend = b.Name
	if b.Client != "" {
		cfg.Driver.Client = b.Client
	}
	cfg.Driver.Redlock.TTL = c.TTL
	backends.Update(&cfg.Driver, func(e *etcdlock.Config) { e.KeepAlive = false })
	if err := cfg.Driver.Validate(); err != nil {
		return cfg, fielderr.Within("driver", err)
	}
	cfg.Topology = lab.ServersFor(cfg.Topology, b.Backend)
	if f.Servers != nil {
		f.Servers(&cfg.Topology)
	}
	return cfg, nil
}

// runGroup measures specs, the points of one fault on one backend; seq
// numbers the first point in the sweep.
func runGroup(ctx context.Context, c Config, specs []pointSpec, seq int, log io.Writer) ([]Point, error) {
	f := specs[0].kind()
	b, _ := backendOf(specs[0].Backend)
	cfg, err := c.cell(f, b)
	if err != nil {
		return nil, err
	}
	var shared *lab.Lab
	if !f.FreshServers {
		if shared, err = lab.Up(ctx, cfg.Topology, log); err != nil {
			return nil, err
		}
		defer shared.Close()
	}
	var points []Point
	for i, p := range specs {
		l := shared
		if l == nil {
			if l, err = lab.Up(ctx, cfg.Topology, nil); err != nil {
				return points, err
			}
		}
		pt, err := runPoint(ctx, c, cfg, l, b, p, fmt.Sprintf("lockbench:safety:%d:%d:", time.Now().UnixNano(), seq+i))
		if shared == nil {
			_ = l.Close()
		}
		if err != nil {
			return points, err
		}
		points = append(points, pt)
		logf(log, "lockbench: %s\n", pointLine(pt))
		if pt.Interrupted {
			return points, nil
		}
	}
	return points, nil
}

// runPoint plays the point's fault on l's servers (lab.Play: the delay
// line, the schedule of compose/faults), opens the backend's lockers
// sized for the point's workers on what the fault put in front of the
// servers, and measures the point on them.
func runPoint(ctx context.Context, c Config, cfg lab.Config, l *lab.Lab, b backend, p pointSpec, prefix string) (Point, error) {
	f := p.kind()
	fp := faultPoint{Config: c, Ratio: p.Ratio, LockServers: l.Masters(cfg.Driver)}
	if f.Plan != nil {
		cfg.Faults = f.Plan(fp)
	}
	cfg.Workload.Workers = c.workers(p)
	play, at, err := l.Play(cfg, nil)
	if err != nil {
		return Point{}, err
	}
	defer play.Stop()
	spec := cfg.Driver
	spec.Workers = cfg.Workload.Workers
	if f.Driver != nil {
		f.Driver(&spec)
	}
	ld := &load{spec: p, cfg: c, prefix: prefix}
	if f.Silenced != nil && f.Silenced(b.Backend) {
		s, err := openSilenced(ctx, spec, b.Backend, at, spec.Workers)
		if err != nil {
			return Point{}, err
		}
		defer s.Close()
		ld.silenced = s
	} else {
		locker, err := backends.Open(ctx, spec, at)
		if err != nil {
			return Point{}, err
		}
		defer locker.Close()
		ld.locker = locker
	}
	if f.CutOff != nil {
		if cut := f.CutOff(fp.LockServers); len(cut) > 0 {
			c, err := openCutOff(ctx, spec, at, cut)
			if err != nil {
				return Point{}, err
			}
			defer c.Close()
			ld.cutOff = c
		}
	}
	counter := 1
	if f.Counter != nil {
		counter = f.Counter(fp.LockServers)
	}
	toks, err := tokensFor(ctx, b.Backend, at, counter)
	if err != nil {
		return Point{}, err
	}
	defer toks.Close()
	ld.tokens = toks
	if f.MinSpan != nil {
		ld.minSpan = f.MinSpan(fp)
	}
	ld.spread = f.Spread
	play.Start(ctx)
	watched := func() (int, []string, float64) { return 0, nil, 0 }
	if f.Failover != nil && l.Topo.Sentinel != nil {
		killAt, hold := f.Failover(fp)
		watched = failoverWatch(ctx, l.Topo.Sentinel, killAt, hold)
	}
	pt, err := ld.measure(ctx)
	events := play.Stop()
	pt.FaultEvents, pt.FaultErrors, pt.FailoverMS = watched()
	pt.FaultEvents += len(events)
	for _, e := range events {
		if e.Err != "" {
			pt.FaultErrors = append(pt.FaultErrors, fmt.Sprintf("%s %s master %d at %.0f ms: %s", e.Fault, e.Action, e.Master, e.AtMS, e.Err))
		}
	}
	return pt, err
}

// pointLine is a point told as it ends.
func pointLine(p Point) string {
	s := fmt.Sprintf("%s %s %g×TTL fencing %s: %d grants, %d violations (%d stale writes accepted, %d refused), %s per 10⁶ [%s, %s], %.1fs",
		p.Backend, p.Fault, p.Ratio, p.Fencing, p.Grants, p.Violations, p.StaleAccepted, p.StaleRejected,
		num(p.PerMillion), num(p.PerMillionLo), num(p.PerMillionHi), p.ElapsedMS/1e3)
	if p.Short {
		s += " (time limit before the grant budget)"
	}
	if p.Overran > 0 {
		s += fmt.Sprintf(" (%d holders overran their validity: the host ran them late)", p.Overran)
	}
	if p.FailoverMS > 0 {
		s += fmt.Sprintf(" (failover %.0f ms)", p.FailoverMS)
	}
	if n := len(p.FaultErrors); n > 0 {
		s += fmt.Sprintf(" (%d fault events failed, first: %s)", n, p.FaultErrors[0])
	}
	return s
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format, a...)
	}
}
