package sweep_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/internal/testenv/slow"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// TestRunOnLab: a short sweep on one real master: three steps of 300 ms,
// each step's window is the step's duration and its workers the step's
// load, and the knee is one of the steps, a good one.
func TestRunOnLab(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	if _, err := os.Stat("/usr/bin/redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := sweep.Config{Base: lab.DefaultConfig(), By: sweep.ByWorkers, Start: 1, Factor: 2, MaxSteps: 3, Refine: sweep.NoRefine,
		SLO: time.Second, MaxErrorRate: 0.05, IntervalRounds: 1}
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
	// 3 steps, then one round of the probes: the step below the knee and
	// the knee (no step failed).
	if len(res.Sweeps) != 1 || len(res.Cells) != 5 || res.Interrupted {
		t.Fatalf("%d sweeps, %d cells, interrupted %v: want 1 sweep of 3 steps and 2 probes", len(res.Sweeps), len(res.Cells), res.Interrupted)
	}
	sw := res.Sweeps[0]
	for i, c := range res.Cells[:3] {
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
	knee := float64(sw.Steps[sw.Knee].Workers)
	if iv := sw.KneeInterval; len(iv) != 2 || iv[0] > knee || iv[1] < knee || sw.SafeRate > knee {
		t.Errorf("interval %v, safe %v: want an interval holding the knee %v, safe under it", iv, sw.SafeRate, knee)
	}
}

// TestStepKeysFreshOnLab: keys a step left held (cycles cut short at its
// end keep their keys until the TTL) do not reach the next step. The
// keys the base prefix's uncontended workers lock first are held on the
// master beforehand, as an earlier step would leave them; every step then
// locks keys of its own: no busy and no split attempt. (A timeout under
// load is not the subject.)
func TestStepKeysFreshOnLab(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a redis-server")
	}
	slow.CPU(t)
	if _, err := os.Stat("/usr/bin/redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := sweep.Config{Base: lab.DefaultConfig(), By: sweep.ByWorkers, Start: 2, Factor: 2, MaxSteps: 2, Refine: sweep.NoRefine,
		SLO: 10 * time.Second, MaxErrorRate: 0.5, Repeat: 1, IntervalRounds: sweep.NoInterval}
	cfg.Base.Topology.Redis.Masters = 1
	cfg.Base.Workload.Duration, cfg.Base.Workload.Warmup = 200*time.Millisecond, 0
	cfg.Base.Workload.Tries = 1 // a held key is a failed acquisition, not a wait
	// A loaded machine's timeouts are not the subject: no attempt should
	// end for want of time.
	cfg.Base.Driver.Redlock.NodeTimeout = time.Second
	l, err := lab.Up(ctx, cfg.Base.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	o := l.Topo.Masters[0].GoRedis()
	o.DisableIdentity = true
	rdb := redis.NewClient(o)
	defer rdb.Close()
	for w := range 4 { // the first keys of every worker of both steps
		for n := 1; n <= 5000; n++ {
			key := fmt.Sprintf("%s:u:%d:%d", cfg.Base.Workload.Prefix, w, n)
			if err := rdb.Set(ctx, key, "left-by-a-cut-short-cycle", time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	res, err := sweep.Run(ctx, l, cfg, sweep.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Cells) != 2 {
		t.Fatalf("%d steps measured, want 2", len(res.Cells))
	}
	for _, c := range res.Cells {
		n := c.Run.Counts
		if n.Acquired == 0 || n.Busy != 0 || n.SplitBrain != 0 {
			t.Errorf("%s: %d attempts, %d acquired, %d busy, %d split: want keys of its own, none held by another",
				c.Run.Name, n.Attempts, n.Acquired, n.Busy, n.SplitBrain)
		}
	}
}
