package sweep

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/results"
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
	p := results.Percentiles{Count: 1000, P99: f.p99(load)}
	if p.P99 < 0 {
		p = results.Percentiles{}
	}
	run := results.Run{Name: cfg.Name(), Workers: cfg.Workload.Workers, LatencyUS: map[string]results.Percentiles{"cycle": p},
		Throughput: results.Throughput{CyclesPerS: cps}, Counts: results.Counts{Attempts: 10000, Cycles: 1000}}
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
