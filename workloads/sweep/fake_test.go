package sweep

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// fakeLab measures without servers: a step's p99 is a function of its
// load, an open loop achieves at most capacity cycles/s.
type fakeLab struct {
	p99      func(load float64) float64 // µs; negative: nothing measured
	capacity float64                    // cycles/s an open loop achieves at most (0: its rate)
	failAt   int                        // the failAt-th Measure (from 1) returns errMeasure
	cancelAt int                        // the cancelAt-th Measure cancels, as Ctrl-C mid-step would
	cancel   context.CancelFunc
	measured []lab.Config
	// noisy are p99s (µs) of the first measurements of a load, in order;
	// later ones are p99's.
	noisy map[float64][]float64
	// leaves: a step at a load over capacity ends with cycles cut short,
	// their keys left held under its prefix until their TTL; a later step
	// on that prefix finds them: split votes and a p99 of the TTL.
	leaves bool
	left   map[string]bool
}

var errMeasure = errors.New("masters timed out")

func (f *fakeLab) Measure(ctx context.Context, cfg lab.Config, _ lab.Observers) (lab.Cell, error) {
	f.measured = append(f.measured, cfg)
	n := len(f.measured)
	if n == f.failAt {
		return lab.Cell{}, errMeasure
	}
	load := cfg.Workload.Rate
	cps := load
	if load == 0 {
		load = float64(cfg.Workload.Workers)
		cps = 1000 * load
	} else if f.capacity > 0 {
		cps = min(cps, f.capacity)
	}
	p := schema.Percentiles{Count: 1000, P99: f.p99(load)}
	if q := f.noisy[load]; len(q) > 0 {
		p.P99, f.noisy[load] = q[0], q[1:]
	}
	if p.P99 < 0 {
		p = schema.Percentiles{}
	}
	run := schema.Run{Name: cfg.Name(), Workers: cfg.Workload.Workers, LatencyUS: map[string]schema.Percentiles{"cycle": p},
		Throughput: schema.Throughput{CyclesPerS: cps}, Counts: schema.Counts{Attempts: 10000, Cycles: 1000}}
	if f.left[cfg.Workload.Prefix] {
		run.Counts.SplitBrain, run.LatencyUS["cycle"] = 8000, schema.Percentiles{Count: 1000, P99: 10e6}
	}
	if f.leaves && load > f.capacity {
		if f.left == nil {
			f.left = map[string]bool{}
		}
		f.left[cfg.Workload.Prefix] = true
	}
	if n == f.cancelAt {
		f.cancel()
		run.Interrupted = true
	}
	return lab.Cell{Run: run}, nil
}

// under is a p99 of 1 ms up to capacity and 10 ms above it.
func under(capacity float64) func(float64) float64 {
	return func(load float64) float64 {
		if load <= capacity {
			return 1000
		}
		return 10000
	}
}

// loads are the loads f measured, in order.
func (f *fakeLab) loads() []float64 {
	var out []float64
	for _, c := range f.measured {
		if c.Workload.Rate > 0 {
			out = append(out, c.Workload.Rate)
		} else {
			out = append(out, float64(c.Workload.Workers))
		}
	}
	return out
}
