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
	Config  Config    `json:"config"`
	Started time.Time `json:"started"`
	Points  []Point   `json:"points"`
	// Interrupted: ctx ended the sweep; Points are those measured.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Run measures every point of c's grid on servers it starts for each
// backend (workloads/lab, stopped again before the next backend), telling
// the plan and each point as it ends on log (nil: nothing). A ctx ended
// mid-sweep returns the points measured so far with Interrupted set, not
// an error.
func Run(ctx context.Context, c Config, log io.Writer) (Result, error) {
	if err := c.Validate(); err != nil {
		return Result{}, err
	}
	c = c.withDefaults()
	res := Result{Config: c, Started: time.Now()}
	logf(log, "lockbench: %s\n", c.Plan())
	all := c.points()
	for _, name := range c.Backends {
		var specs []pointSpec
		for _, p := range all {
			if p.Backend == name {
				specs = append(specs, p)
			}
		}
		points, err := runBackend(ctx, c, name, specs, len(res.Points), log)
		res.Points = append(res.Points, points...)
		if ctx.Err() != nil {
			res.Interrupted = true
			return res, nil
		}
		if err != nil {
			return res, fmt.Errorf("%s: %w", name, err)
		}
	}
	return res, nil
}

// cell is the lab configuration of backend's points: its servers, the
// sweep's TTL, and etcd leases that are not kept alive (a paused process
// sends no keep-alives either, so its lease lapses as a Redlock key does).
func (c Config) cell(backend string) (lab.Config, error) {
	cfg := lab.DefaultConfig()
	cfg.Driver.Backend = backend
	cfg.Driver.Redlock.TTL = c.TTL
	backends.Update(&cfg.Driver, func(e *etcdlock.Config) { e.KeepAlive = false })
	if err := cfg.Driver.Validate(); err != nil {
		return cfg, fielderr.Within("driver", err)
	}
	b, _ := backends.Lookup(backend)
	cfg.Topology = lab.ServersFor(cfg.Topology, b)
	return cfg, nil
}

// runBackend measures specs, the points of one backend, on its own servers;
// seq numbers the first point in the sweep.
func runBackend(ctx context.Context, c Config, name string, specs []pointSpec, seq int, log io.Writer) ([]Point, error) {
	cfg, err := c.cell(name)
	if err != nil {
		return nil, err
	}
	l, err := lab.Up(ctx, cfg.Topology, log)
	if err != nil {
		return nil, err
	}
	defer l.Close()
	b, _ := backends.Lookup(name)
	at := l.Endpoints()
	var points []Point
	for i, p := range specs {
		pt, err := runPoint(ctx, c, cfg, b, at, p, fmt.Sprintf("lockbench:safety:%d:%d:", time.Now().UnixNano(), seq+i))
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

// runPoint opens the backend's locker sized for the point's workers and
// measures the point on it.
func runPoint(ctx context.Context, c Config, cfg lab.Config, b backends.Backend, at backends.Endpoints, p pointSpec, prefix string) (Point, error) {
	ld := &load{spec: p, cfg: c, prefix: prefix}
	spec := cfg.Driver
	spec.Workers = c.Keys * workersPerKey(p.Ratio)
	locker, err := backends.Open(ctx, spec, at)
	if err != nil {
		return Point{}, err
	}
	defer locker.Close()
	toks, err := tokensFor(b, at)
	if err != nil {
		return Point{}, err
	}
	defer toks.Close()
	ld.locker, ld.tokens = locker, toks
	return ld.measure(ctx)
}

// pointLine is a point told as it ends.
func pointLine(p Point) string {
	s := fmt.Sprintf("%s pause %g×TTL fencing %s: %d grants, %d violations (%d stale writes accepted, %d refused), %s per 10⁶ [%s, %s], %.1fs",
		p.Backend, p.Ratio, p.Fencing, p.Grants, p.Violations, p.StaleAccepted, p.StaleRejected,
		num(p.PerMillion), num(p.PerMillionLo), num(p.PerMillionHi), p.ElapsedMS/1e3)
	if p.Short {
		s += " (time limit before the grant budget)"
	}
	return s
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format, a...)
	}
}
