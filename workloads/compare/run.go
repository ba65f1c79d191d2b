package compare

import (
	"context"
	"fmt"
	"io"
	"maps"
	"time"

	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/schema"
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
	// Measure, when set, measures each cell in place of the lab's own
	// Measure: several processes measuring the cell together return it
	// merged. at is the cell's place in the plan and its round.
	Measure func(ctx context.Context, l *lab.Lab, c lab.Config, obs lab.Observers, at At) (lab.Cell, error)
}

// At is one measurement of a compare: cell Cell of the plan in round Round
// (from 0).
type At struct{ Cell, Round int }

// Result is a compare's outcome, complete or cut short.
type Result struct {
	// Config is the plan's config: defaults filled in, "all" baselines
	// and external masters resolved.
	Config  Config
	Started time.Time
	// Took is the wall time from Started to the last cell's end.
	Took time.Duration
	// Runs are the measured cells sorted by throughput, with their ratios
	// (setRatios): with Config.Repeat > 1 one run per cell and round, sorted
	// by the cell's median, its rounds in order. A run's name ends in
	// /<N>m when several masters counts were compared and in /rtt=<d> when
	// round trips were added.
	Runs []schema.Run
	// Cells are the measured cells in the order they ran, with their
	// histograms and interval logs (their runs carry no ratios).
	Cells []lab.Cell
	// Ceilings are the redis-benchmark ceilings by masters count
	// (Config.Ceiling): the median of the rounds'.
	Ceilings map[int]Ceiling
	// Gaps are each client's ceiling → floor → best cell (Config.Ceiling,
	// the clients with a floor: measureFloor), ratios round by round.
	Gaps []Gap
	// Versions and Servers are the labs' servers' versions and facts.
	Versions map[string]string
	Servers  []schema.Server
	// Interrupted: ctx was canceled; the cell in progress is kept with its
	// own Interrupted set, the cells and rounds after it never ran.
	Interrupted bool
	planned     int // cells per round
}

// Run plans cfg's matrix and measures it (NewPlan, then Plan.Run).
func Run(ctx context.Context, cfg Config, obs Observers) (Result, error) {
	p, err := NewPlan(cfg)
	if err != nil {
		return Result{Config: cfg}, err
	}
	return p.Run(ctx, obs)
}

// Run brings each masters count's servers up once (a lab.Lab) and
// measures the group's cells there in Config.Repeat rounds: each round
// measures the ceiling when asked, then every cell once, in RoundOrder. A
// canceled ctx stops after the cell in progress and is not an error: the
// Result says Interrupted. On an error the Result holds what was measured
// before it.
func (p *Plan) Run(ctx context.Context, obs Observers) (Result, error) {
	res := Result{Config: p.Config, Started: time.Now(), Ceilings: map[int]Ceiling{}, Versions: map[string]string{}, planned: len(p.Cells)}
	ceilings, floors := map[int][]Ceiling{}, map[floorKey][]Floor{}
	var runErr error
	for _, g := range groups(p.Cells) {
		if ctx.Err() != nil {
			break
		}
		if runErr = p.runGroup(ctx, g, obs, &res, ceilings, floors); runErr != nil {
			break
		}
	}
	if ctx.Err() != nil && runErr != nil {
		runErr = nil // a shutdown, not a failure
	}
	res.Interrupted = ctx.Err() != nil
	res.Took = time.Since(res.Started)
	for m, cs := range ceilings {
		res.Ceilings[m] = medianCeiling(cs)
	}
	res.Runs = make([]schema.Run, len(res.Cells))
	for i, m := range res.Cells {
		res.Runs[i] = m.Run
	}
	medians := map[floorKey]Floor{}
	for k, fs := range floors {
		medians[k] = medianFloor(fs)
	}
	setRatios(res.Runs, res.Ceilings, medians)
	res.Gaps = gaps(res.Runs, ceilings, floors, medians)
	return res, runErr
}

// runGroup starts the servers of group g and measures its rounds there,
// appending each cell measured to res.Cells, each ceiling to ceilings and
// each client's floor to floors. A canceled ctx ends it without an error.
func (p *Plan) runGroup(ctx context.Context, g group, obs Observers, res *Result, ceilings map[int][]Ceiling, floors map[floorKey][]Floor) error {
	first := p.Cells[g.start]
	l, err := lab.Up(ctx, first.Config.Topology, obs.Log)
	if err != nil {
		return err
	}
	defer l.Close()
	res.Versions = l.Versions(ctx, res.Versions)
	res.Servers = l.Servers(res.Servers, obs.Log)
	rounds := max(p.Config.Repeat, 1)
	for round := range rounds {
		if p.Config.Ceiling && ctx.Err() == nil {
			server, closeServer := l.ServerCPU()
			ceil, err := measureCeiling(ctx, l.Topo.Masters, p.Config.Base.Topology.RedisAuth.TLS, first.Config.Driver.Redlock.TTL, server, obs.Log)
			closeServer()
			if err != nil {
				return fmt.Errorf("compare: ceiling: %w", err)
			}
			ceilings[first.Masters] = append(ceilings[first.Masters], ceil)
			if err := p.measureFloors(ctx, l, first, obs, floors); err != nil {
				return err
			}
		}
		for _, k := range RoundOrder(g.end-g.start, round) {
			if ctx.Err() != nil {
				return nil
			}
			m, err := p.measure(ctx, l, g.start+k, round, obs)
			if err != nil {
				if m.Run.Name != "" { // measured, then judged a failure: kept
					res.Cells = append(res.Cells, m)
				}
				return err
			}
			res.Cells = append(res.Cells, m)
		}
	}
	return nil
}

// measureFloors measures, after the round's ceiling, the floor of every
// client of the plan that has one, with the cells' workers and durations.
func (p *Plan) measureFloors(ctx context.Context, l *lab.Lab, first Cell, obs Observers, floors map[floorKey][]Floor) error {
	c := first.Config
	for _, client := range p.Config.Clients {
		if _, ok := floorClients[client]; !ok || ctx.Err() != nil {
			continue
		}
		server, closeServer := l.ServerCPU()
		f, err := measureFloor(ctx, client, l.Topo.Masters, c.Workload.Workers, c.Driver.Redlock.TTL, c.Workload.Warmup, c.Workload.Duration, server, obs.Log)
		closeServer()
		switch {
		case ctx.Err() != nil:
			return nil
		case err != nil:
			return fmt.Errorf("compare: floor of %s: %w", client, err)
		}
		k := floorKey{first.Masters, client}
		floors[k] = append(floors[k], f)
	}
	return nil
}

// measure measures cell i of the plan in round (from 0) on l and names
// its run.
func (p *Plan) measure(ctx context.Context, l *lab.Lab, i, round int, obs Observers) (lab.Cell, error) {
	cell := p.Cells[i]
	c := cell.Config
	// Each cell gets its own keys: a lock a previous cell left held (a
	// release that timed out) would otherwise block a contended cell's
	// hot key for up to its TTL. So does each round.
	c.Workload.Prefix = fmt.Sprintf("%s:c%d", c.Workload.Prefix, i)
	if p.Config.Repeat > 1 {
		c.Workload.Prefix += fmt.Sprintf("r%d", round+1)
	}
	measure := func(ctx context.Context, l *lab.Lab, c lab.Config, o lab.Observers, _ At) (lab.Cell, error) {
		return l.Measure(ctx, c, o)
	}
	if obs.Measure != nil {
		measure = obs.Measure
	}
	m, err := measure(ctx, l, c, lab.Observers{Log: obs.Log, Progress: obs.Progress, Metrics: obs.Metrics}, At{Cell: i, Round: round})
	if err != nil {
		err = fmt.Errorf("%s: %w", c.Name(), err)
	}
	if m.Run.Name == "" {
		return m, err
	}
	if len(p.Config.Masters) > 1 {
		m.Run.Name = fmt.Sprintf("%s/%dm", m.Run.Name, cell.Masters)
	}
	if len(p.Config.RTTs) > 0 && !c.HasDistance() { // lab names the others'
		m.Run.Name += "/rtt=0s"
	}
	if p.Config.Repeat > 1 {
		m.Run.Repeat = round + 1
	}
	return m, err
}

// Summary is the result as a summary whose config is config (nil: the
// result's Config).
func (r Result) Summary(config any) (*schema.Summary, error) {
	if config == nil {
		config = r.Config
	}
	sum, err := schema.NewSummary(r.Started, config)
	if err != nil {
		return nil, err
	}
	maps.Copy(sum.Versions, r.Versions)
	sum.Servers, sum.Runs, sum.Interrupted = r.Servers, r.Runs, r.Interrupted
	return sum, nil
}

// Budget is what the compare spent: its rounds of cells, each cell's
// warmup and duration, and the wall time.
func (r Result) Budget() budget {
	return budget{Rounds: max(r.Config.Repeat, 1), Cells: r.planned, Warmup: r.Config.Base.Workload.Warmup,
		Duration: r.Config.Base.Workload.Duration, Took: r.Took}
}

// CeilingRates are the ceilings' cycles/s by masters count.
func (r Result) CeilingRates() map[int]float64 {
	out := make(map[int]float64, len(r.Ceilings))
	for m, c := range r.Ceilings {
		out[m] = c.CyclesPerS
	}
	return out
}
