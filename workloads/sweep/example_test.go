package sweep_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// queue is a toy lab whose p99 grows by 50 µs per worker: a Measurer
// stands where a *lab.Lab would (lab.Up) and measures nothing real.
type queue struct{}

func (queue) Measure(_ context.Context, cfg lab.Config, _ lab.Observers) (lab.Cell, error) {
	w := float64(cfg.Workload.Workers)
	return lab.Cell{Run: schema.Run{Workers: cfg.Workload.Workers,
		LatencyUS:  map[string]schema.Percentiles{"cycle": {Count: 1000, P99: 50 * w}},
		Throughput: schema.Throughput{CyclesPerS: 1000 * w}, Counts: schema.Counts{Attempts: 1000}}}, nil
}

// Find how many workers keep the p99 of a lock cycle under 2 ms: double
// them from 1 until a step breaks the SLO; confirm that step and the one
// below with 3 measurements each (the default Repeat); the step above the
// failure fails too (the curve rises), so the failure is no noise; then
// bisect twice, each midpoint measured 3 times. Last, three interleaved
// rounds measure the step below the knee, the knee and the first bad step
// once each: where a rerun's knee would land, and the safe rate.
func ExampleRun() {
	cfg := sweep.Config{By: sweep.ByWorkers, SLO: 2 * time.Millisecond, Factor: 2}
	obs := sweep.Observers{Step: func(run string, st schema.SweepStep) {
		fmt.Printf("%s: p99 %.0f µs ok=%v\n", run[strings.Index(run, "@")+1:], st.P99US, st.OK)
	}}
	res, err := sweep.Run(context.Background(), queue{}, cfg, obs)
	if err != nil {
		fmt.Println(err)
		return
	}
	sw := res.Sweeps[0]
	fmt.Println("knee:", sw.Steps[sw.Knee].Workers, "workers; interval", sw.KneeInterval, "; safe:", sw.SafeRate, "workers")
	// Output:
	// workers=1: p99 50 µs ok=true
	// workers=2: p99 100 µs ok=true
	// workers=4: p99 200 µs ok=true
	// workers=8: p99 400 µs ok=true
	// workers=16: p99 800 µs ok=true
	// workers=32: p99 1600 µs ok=true
	// workers=64: p99 3200 µs ok=false
	// workers=64 (2 of 3): p99 3200 µs ok=false
	// workers=64 (3 of 3): p99 3200 µs ok=false
	// workers=64 (median of 3): p99 3200 µs ok=false
	// workers=91: p99 4550 µs ok=false
	// workers=32 (2 of 3): p99 1600 µs ok=true
	// workers=32 (3 of 3): p99 1600 µs ok=true
	// workers=32 (median of 3): p99 1600 µs ok=true
	// workers=48 (1 of 3): p99 2400 µs ok=false
	// workers=48 (2 of 3): p99 2400 µs ok=false
	// workers=48 (3 of 3): p99 2400 µs ok=false
	// workers=48 (median of 3): p99 2400 µs ok=false
	// workers=40 (1 of 3): p99 2000 µs ok=true
	// workers=40 (2 of 3): p99 2000 µs ok=true
	// workers=40 (3 of 3): p99 2000 µs ok=true
	// workers=40 (median of 3): p99 2000 µs ok=true
	// workers=32 (probe, round 1 of 3): p99 1600 µs ok=true
	// workers=40 (probe, round 1 of 3): p99 2000 µs ok=true
	// workers=48 (probe, round 1 of 3): p99 2400 µs ok=false
	// workers=40 (probe, round 2 of 3): p99 2000 µs ok=true
	// workers=48 (probe, round 2 of 3): p99 2400 µs ok=false
	// workers=32 (probe, round 2 of 3): p99 1600 µs ok=true
	// workers=48 (probe, round 3 of 3): p99 2400 µs ok=false
	// workers=32 (probe, round 3 of 3): p99 1600 µs ok=true
	// workers=40 (probe, round 3 of 3): p99 2000 µs ok=true
	// knee: 40 workers; interval [40 48] ; safe: 40 workers
}
