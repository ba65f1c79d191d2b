// Package measure is lockbench as a library: it measures any
// drivers.Locker — one of lockbench's or the caller's own — under a
// workload and returns the same schema.Run the CLI writes.
//
// It owns the measuring core of a cell: the registry, the clock, the mutual
// exclusion referee, the run loop and filling the Run (counts, latencies,
// referee verdicts, pacing). Servers, faults, cost sampling and output stay
// with the caller (workloads/lab, or your program). It may import
// workloads, results and drivers; nothing under drivers, multiplex,
// results or compose may import it.
package measure

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads"
)

// MeasureLocker drives locker with cfg's workload and returns the measured
// run. Zero-value fields of cfg take workloads.DefaultConfig's values. A ctx
// canceled mid-run yields what was measured with Interrupted set, not an
// error. locker is not closed.
func MeasureLocker(ctx context.Context, locker drivers.Locker, cfg workloads.Config) (schema.Run, error) {
	m, err := Measure(ctx, locker, WithDefaults(cfg), Hooks{})
	return m.Run, err
}

// Hooks are optional observers of a run, for callers that report progress,
// write interval logs or sample cost; nil fields are skipped.
type Hooks struct {
	// Progress is called once a second with the interval just merged and
	// the total so far.
	Progress func(elapsed time.Duration, iv, total *record.Interval)
	// OnInterval is given every interval merged into the measured total.
	OnInterval func(iv *record.Interval)
	// OnWindow is called as the measured window starts (false) and ends
	// (true), for samplers that must cover exactly the window.
	OnWindow func(end bool)
	// Stalls are client pauses armed by a pause-client fault.
	Stalls *workloads.Stalls
	// Violations, if set, is given the referee's live violation count:
	// exporters read it on their tick, never per sample.
	Violations func(live func() int64)
	// Barrier is waited for just before the run's window is fixed
	// (workloads.Env.Barrier).
	Barrier func(ctx context.Context) (time.Time, error)
	// Referee, if set, wraps the run's referee: observers that must see
	// every grant (a grant log) pass the calls on to the referee given.
	Referee func(workloads.Judge) workloads.Judge
}

// measurement is a run with what lies behind it.
type measurement struct {
	Run      schema.Run
	Registry *record.Registry // the histograms, for interval logs
	Result   workloads.Result // what the loop knew: pacing, interruption
}

// Measure is MeasureLocker with hooks and the registry kept, and cfg taken
// as given (a zero Warmup is no warmup): the CLI's flags have filled it.
func Measure(ctx context.Context, locker drivers.Locker, cfg workloads.Config, h Hooks) (measurement, error) {
	reg := record.NewRegistry(cfg.Rate > 0) // open loop: keep service time apart
	clock := record.NewClock()
	ref := referee.New(cfg.Workers, clock, 0)
	if h.Violations != nil {
		h.Violations(ref.Violations)
	}
	env := workloads.Env{Locker: locker, Registry: reg, Clock: clock, Referee: ref,
		Stalls: h.Stalls, Progress: h.Progress, OnInterval: h.OnInterval, OnWindow: h.OnWindow, Barrier: h.Barrier}
	if h.Referee != nil {
		env.Referee = h.Referee(ref)
	}
	res, err := workloads.Run(ctx, cfg, env)
	if err != nil {
		return measurement{}, err
	}
	run := schema.Run{
		Workload: cfg.Workload, Keys: cfg.Keys, Workers: cfg.Workers, Rate: cfg.Rate,
		Interrupted: res.Interrupted, NothingMeasured: res.NothingMeasured,
		AllocsPerCycle: res.AllocsPerCycle, Stalls: res.Stalls, Unfinished: res.Unfinished,
	}
	if cfg.Workload == "uncontended" {
		run.Keys = 0 // one key per worker: the count is not a parameter
	}
	record.Fill(&run, reg.Total())
	run.FillReferee(ref.Report())
	if p := res.Pacing; p != nil {
		run.MissedStarts = p.Missed
		run.Pacing = p
	}
	return measurement{Run: run, Registry: reg, Result: res}, nil
}

// WithDefaults fills cfg's zero-value fields from workloads.DefaultConfig.
// Hold and Rate keep zero (no hold, the closed loop), which is their default.
func WithDefaults(cfg workloads.Config) workloads.Config {
	d := workloads.DefaultConfig()
	fill := func(v *string, def string) {
		if *v == "" {
			*v = def
		}
	}
	fill(&cfg.Workload, d.Workload)
	fill(&cfg.Prefix, d.Prefix)
	fill(&cfg.HoldDist, d.HoldDist)
	for _, f := range []struct{ v, def *int }{{&cfg.Keys, &d.Keys}, {&cfg.Workers, &d.Workers}, {&cfg.Tries, &d.Tries}} {
		if *f.v == 0 {
			*f.v = *f.def
		}
	}
	for _, f := range []struct{ v, def *time.Duration }{{&cfg.Duration, &d.Duration}, {&cfg.Warmup, &d.Warmup}, {&cfg.RetryDelay, &d.RetryDelay}} {
		if *f.v == 0 {
			*f.v = *f.def
		}
	}
	if cfg.ZipfS == 0 {
		cfg.ZipfS = d.ZipfS
	}
	return cfg
}
