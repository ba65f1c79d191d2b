package lab_test

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/workloads/lab"
)

// Measure Redlock over rueidis explicit pipelining on three local Redis
// masters that the lab starts and stops: the library form of
// `lockbench run --masters 3 --client rueidis --mux pipeline`.
func ExampleLab_Measure() {
	ctx := context.Background()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 3
	cfg.Driver.Client, cfg.Driver.Mux = "rueidis", "pipeline"
	cfg.Workload.Workers, cfg.Workload.Duration, cfg.Workload.Warmup = 8, 500*time.Millisecond, 100*time.Millisecond

	l, err := lab.Up(ctx, cfg.Topology, nil) // nil: no phase lines
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	cell, err := l.Measure(ctx, cfg, lab.Observers{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := cell.Run
	fmt.Println(r.Name, "on", r.Masters, "masters")
	fmt.Println("window:", r.DurationS, "s; cycles > 0:", r.Counts.Cycles > 0, "; violations:", r.Counts.Violations)
	// Output:
	// redlock/rueidis/pipeline/uncontended on 3 masters
	// window: 0.5 s; cycles > 0: true ; violations: 0
}
