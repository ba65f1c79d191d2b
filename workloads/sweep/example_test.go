package sweep_test

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// queue is a toy lab whose p99 grows by 50 µs per worker: a Measurer
// stands where a *lab.Lab would (lab.Up) and measures nothing real.
type queue struct{}

func (queue) Measure(_ context.Context, cfg lab.Config, _ lab.Observers) (lab.Cell, error) {
	w := float64(cfg.Workload.Workers)
	return lab.Cell{Run: results.Run{Workers: cfg.Workload.Workers,
		LatencyUS:  map[string]results.Percentiles{"cycle": {Count: 1000, P99: 50 * w}},
		Throughput: results.Throughput{CyclesPerS: 1000 * w}, Counts: results.Counts{Attempts: 1000}}}, nil
}

// Find how many workers keep the p99 of a lock cycle under 2 ms: double
// them from 1 until a step breaks the SLO; confirm that step and the one
// below with 3 measurements each (the default Repeat), then bisect twice,
// each midpoint measured 3 times.
func ExampleRun() {
	cfg := sweep.Config{By: sweep.ByWorkers, SLO: 2 * time.Millisecond, Factor: 2}
	obs := sweep.Observers{Step: func(run string, st capacity.Step) {
		fmt.Printf("%d workers: p99 %.0f µs ok=%v\n", st.Workers, st.P99US, st.OK)
	}}
	res, err := sweep.Run(context.Background(), queue{}, cfg, obs)
	if err != nil {
		fmt.Println(err)
		return
	}
	sw := res.Sweeps[0]
	fmt.Println("knee:", sw.Steps[sw.Knee].Workers, "workers")
	// Output:
	// 1 workers: p99 50 µs ok=true
	// 2 workers: p99 100 µs ok=true
	// 4 workers: p99 200 µs ok=true
	// 8 workers: p99 400 µs ok=true
	// 16 workers: p99 800 µs ok=true
	// 32 workers: p99 1600 µs ok=true
	// 64 workers: p99 3200 µs ok=false
	// 64 workers: p99 3200 µs ok=false
	// 64 workers: p99 3200 µs ok=false
	// 32 workers: p99 1600 µs ok=true
	// 32 workers: p99 1600 µs ok=true
	// 48 workers: p99 2400 µs ok=false
	// 48 workers: p99 2400 µs ok=false
	// 48 workers: p99 2400 µs ok=false
	// 40 workers: p99 2000 µs ok=true
	// 40 workers: p99 2000 µs ok=true
	// 40 workers: p99 2000 µs ok=true
	// knee: 40 workers
}
