package scenario

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Observers are what watches a scenario besides its outcome; every field
// may be nil.
type Observers struct {
	// Log is told each scenario as it starts ("lockbench: scenario …").
	Log io.Writer
	// Metrics exports a Faults scenario's counters on the tick.
	Metrics *prom.Exporter
}

// Result is what one scenario measured, judged: one row for a Faults or
// Failover scenario, one per backend for client-pause. Each row is a
// schema.Run whose Scenario field holds the measured outcome, the
// expected one and the verdict, as a summary holds it.
type Result struct {
	Scenario Scenario
	Runs     []schema.Run
}

// AsExpected: every row measured as expected.
func (o Result) AsExpected() bool {
	for _, r := range o.Runs {
		if r.Scenario == nil || !r.Scenario.AsExpect {
			return false
		}
	}
	return len(o.Runs) > 0
}

// Run measures s on servers it starts and stops itself, and judges it. A
// ctx canceled mid-run is an error (what was measured is incomplete).
func Run(ctx context.Context, s Scenario, obs Observers) (Result, error) {
	out := Result{Scenario: s}
	var err error
	switch s.Kind {
	case Faults:
		var r schema.Run
		r, err = runFaults(ctx, s, obs)
		out.Runs = []schema.Run{r}
	case Failover:
		logf(obs.Log, "lockbench: scenario %s (master + replica + sentinel, wait-replicas %d)\n", s.Name, s.WaitReplicas)
		var f failoverMeasure
		if f, err = measureFailover(ctx, s.WaitReplicas); err == nil {
			out.Runs = []schema.Run{f.run(s)}
		}
	case ClientPause:
		logf(obs.Log, "lockbench: scenario %s (%d rounds on %d backends)\n", s.Name, pauseRounds, len(s.Backends))
		out.Runs, err = runClientPause(ctx, s)
	default:
		err = fmt.Errorf("unknown kind %q", s.Kind)
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	if err != nil {
		return Result{Scenario: s}, fmt.Errorf("scenario %s: %w", s.Name, err)
	}
	return out, nil
}

func logf(w io.Writer, format string, a ...any) {
	if w != nil {
		fmt.Fprintf(w, format, a...)
	}
}

// Config is a Faults scenario's cell: the shared base, the scenario's
// setup, and the servers its backend and faults need.
func (s Scenario) Config() (lab.Config, error) {
	if s.Kind != Faults {
		return lab.Config{}, fmt.Errorf("scenario %s: a %s scenario has no cell config", s.Name, s.Kind)
	}
	c := base()
	s.Setup(&c)
	if err := prepare(&c); err != nil {
		return lab.Config{}, fmt.Errorf("scenario %s: %w", s.Name, err)
	}
	return c, nil
}

// prepare checks c and marks the servers its backend and faults need (what
// the CLI's validation does for a cell from flags).
func prepare(c *lab.Config) error {
	if err := c.Driver.Validate(); err != nil {
		return err
	}
	if err := c.Workload.Validate(); err != nil {
		return err
	}
	b, _ := backends.Lookup(c.Driver.Backend)
	c.Topology = lab.ServersFor(c.Topology, b)
	t := &c.Topology
	fs, _, err := faults.ParseAll(c.Faults)
	if err != nil {
		return err
	}
	for _, f := range fs {
		if err := f.Check(t.Redis.Masters, c.Workload.Workers, true); err != nil {
			return err
		}
		if at, end := f.At.Resolve(c.Driver.Redlock.TTL), c.Workload.Warmup+c.Workload.Duration; at >= end {
			return fmt.Errorf("fault %q: at=%v is not before the end of the run (%v)", f.Spec, at, end)
		}
	}
	t.Redis.ClockShift = faults.Clocked(fs)
	return nil
}

// runFaults measures a Faults scenario's cell on its own servers and
// judges it.
func runFaults(ctx context.Context, s Scenario, obs Observers) (schema.Run, error) {
	cfg, err := s.Config()
	if err != nil {
		return schema.Run{}, err
	}
	logf(obs.Log, "lockbench: scenario %s (%v): %s\n", s.Name, cfg.Workload.Duration, strings.Join(cfg.Faults, " "))
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		return schema.Run{}, err
	}
	defer l.Close()
	m, err := l.Measure(ctx, cfg, lab.Observers{Metrics: obs.Metrics})
	if err != nil {
		return schema.Run{}, err
	}
	return faultsRow(s, m.Run, cfg), nil
}

// faultsRow is a Faults scenario's measured run as its summary row, judged.
func faultsRow(s Scenario, run schema.Run, cfg lab.Config) schema.Run {
	o := outcomeOf(run, cfg.Workload.Duration)
	o.Scenario = s.Name
	s.Expect.judge(&o)
	run.Name = "scenario/" + s.Name
	run.Scenario = &o
	return run
}
