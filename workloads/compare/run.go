package compare

import (
	"context"
	"fmt"
	"io"
	"maps"
	"time"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Observers watch a compare besides its result; every field may be nil.
type Observers struct {
	// Log receives the servers' start-up phases and warnings, the ceiling
	// line and each cell's warnings (nil: quiet).
	Log io.Writer
	// Progress is told each cell's phases and per-second figures.
	Progress lab.Progress
	// Metrics exports each cell's counters on the tick.
	Metrics *prom.Exporter
}

// Result is a compare's outcome, complete or cut short.
type Result struct {
	// Config is the plan's config: defaults filled in, "all" baselines
	// and external masters resolved.
	Config  Config
	Started time.Time
	// Runs are the measured cells sorted by throughput, with their ratios
	// (Ratios). A run's name ends in /<N>m when several masters counts
	// were compared and in /rtt=<d> when round trips were added.
	Runs []results.Run
	// Cells are the measured cells in the order they ran, with their
	// histograms and interval logs (their runs carry no ratios).
	Cells []lab.Cell
	// Ceilings are the redis-benchmark ceilings by masters count (Config.Ceiling).
	Ceilings map[int]Ceiling
	// Versions and Servers are the labs' servers' versions and facts.
	Versions map[string]string
	Servers  []results.Server
	// Interrupted: ctx was canceled; the cell in progress is kept with its
	// own Interrupted set, the cells after it never ran.
	Interrupted bool
}

// Run plans cfg's matrix and measures it (NewPlan, then Plan.Run).
func Run(ctx context.Context, cfg Config, obs Observers) (Result, error) {
	p, err := NewPlan(cfg)
	if err != nil {
		return Result{Config: cfg}, err
	}
	return p.Run(ctx, obs)
}

// Run brings each masters count's servers up once (a lab.Lab), measures
// the ceiling there when asked, then the group's cells, one after the
// other. A canceled ctx stops after the cell in progress and is not an
// error: the Result says Interrupted. On an error the Result holds what
// was measured before it.
func (p *Plan) Run(ctx context.Context, obs Observers) (Result, error) {
	res := Result{Config: p.Config, Started: time.Now(), Ceilings: map[int]Ceiling{}, Versions: map[string]string{}}
	var (
		l       *lab.Lab
		topoFor = -1
		runErr  error
	)
	closeLab := func() {
		if l != nil {
			_ = l.Close()
			l = nil
		}
	}
	defer closeLab()
	for i, cell := range p.Cells {
		if ctx.Err() != nil {
			break
		}
		c := cell.Config
		// Each cell gets its own keys: a lock a previous cell left held (a
		// release that timed out) would otherwise block a contended cell's
		// hot key for up to its TTL.
		c.Workload.Prefix = fmt.Sprintf("%s:c%d", c.Workload.Prefix, i)
		if cell.Masters != topoFor {
			closeLab()
			if l, runErr = lab.Up(ctx, c.Topology, obs.Log); runErr != nil {
				break
			}
			topoFor = cell.Masters
			res.Versions = l.Versions(ctx, res.Versions)
			res.Servers = l.Servers(res.Servers, obs.Log)
			if p.Config.Ceiling {
				server, closeServer := l.ServerCPU()
				ceil, err := measureCeiling(ctx, l.Topo.Masters, p.Config.Base.Topology.RedisAuth.TLS, c.Driver.Redlock.TTL, server, obs.Log)
				closeServer()
				if err != nil {
					runErr = fmt.Errorf("compare: ceiling: %w", err)
					break
				}
				res.Ceilings[cell.Masters] = ceil
			}
		}
		m, err := l.Measure(ctx, c, lab.Observers{Log: obs.Log, Progress: obs.Progress, Metrics: obs.Metrics})
		if err != nil {
			runErr = fmt.Errorf("%s: %w", c.Name(), err)
			break
		}
		if len(p.Config.Masters) > 1 {
			m.Run.Name = fmt.Sprintf("%s/%dm", m.Run.Name, cell.Masters)
		}
		if len(p.Config.RTTs) > 0 {
			m.Run.Name = fmt.Sprintf("%s/rtt=%v", m.Run.Name, c.RTT)
		}
		res.Cells = append(res.Cells, m)
	}
	closeLab()
	if ctx.Err() != nil && runErr != nil {
		runErr = nil // a shutdown, not a failure
	}
	res.Interrupted = ctx.Err() != nil
	res.Runs = make([]results.Run, len(res.Cells))
	for i, m := range res.Cells {
		res.Runs[i] = m.Run
	}
	Ratios(res.Runs, res.Ceilings)
	return res, runErr
}

// Summary is the result as a summary whose config is config (nil: the
// result's Config).
func (r Result) Summary(config any) (*results.Summary, error) {
	if config == nil {
		config = r.Config
	}
	sum, err := results.NewSummary(r.Started, config)
	if err != nil {
		return nil, err
	}
	maps.Copy(sum.Versions, r.Versions)
	sum.Servers, sum.Runs, sum.Interrupted = r.Servers, r.Runs, r.Interrupted
	return sum, nil
}

// CeilingRates are the ceilings' cycles/s by masters count.
func (r Result) CeilingRates() map[int]float64 {
	out := make(map[int]float64, len(r.Ceilings))
	for m, c := range r.Ceilings {
		out[m] = c.CyclesPerS
	}
	return out
}
