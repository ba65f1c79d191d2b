package sweep_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose/slow"

	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// TestRunOnLab: a short sweep on one real master: three steps of 300 ms,
// each step's window is the step's duration and its workers the step's
// load, and the knee is one of the steps, a good one.
func TestRunOnLab(t *testing.T) {
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	if _, err := os.Stat("/usr/bin/redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := sweep.Config{Base: lab.DefaultConfig(), By: sweep.ByWorkers, Start: 1, Factor: 2, MaxSteps: 3, Refine: sweep.NoRefine,
		SLO: time.Second, MaxErrorRate: 0.05}
	cfg.Base.Topology.Redis.Masters = 1
	cfg.Base.Workload.Duration, cfg.Base.Workload.Warmup = 300*time.Millisecond, 100*time.Millisecond
	l, err := lab.Up(ctx, cfg.Base.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	res, err := sweep.Run(ctx, l, cfg, sweep.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sweeps) != 1 || len(res.Cells) != 3 || res.Interrupted {
		t.Fatalf("%d sweeps, %d cells, interrupted %v: want 1 sweep of 3 steps", len(res.Sweeps), len(res.Cells), res.Interrupted)
	}
	sw := res.Sweeps[0]
	for i, c := range res.Cells {
		r := c.Run
		load := 1 << i
		if r.Name != fmt.Sprintf("redlock/goredis/%s/uncontended@workers=%d", lab.DefaultMux, load) || r.Workers != load || sw.Steps[i].Workers != load {
			t.Errorf("step %d: run %q with %d workers, step %+v: want %d workers", i, r.Name, r.Workers, sw.Steps[i], load)
		}
		if math.Abs(r.DurationS-0.3) > 0.01 {
			t.Errorf("step %d: window %.3f s, want the step's 0.3 s", i, r.DurationS)
		}
		if r.Counts.Cycles == 0 || c.Hlog == nil {
			t.Errorf("step %d: %d cycles, interval log %v", i, r.Counts.Cycles, c.Hlog != nil)
		}
	}
	if sw.Knee < 0 || sw.Knee >= len(sw.Steps) || !sw.Steps[sw.Knee].OK {
		t.Fatalf("knee %d of steps %+v: want a good step", sw.Knee, sw.Steps)
	}
}
