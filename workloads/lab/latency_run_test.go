package lab_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestMeasureLatencyFaultAndDistance: a cell with a distance per master,
// a latency fault on the delay line and a partition through the proxies
// behind it. Every cycle pays at least the sequential round trips of the
// nearest masters, the fault is injected and healed without error, the
// delay line's CPU is reported apart, the row is named with the distances,
// and no delay line outlives the cell.
func TestMeasureLatencyFaultAndDistance(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 3 masters")
	}
	slow.CPU(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 3
	cfg.Driver.Client, cfg.Driver.Mux = "goredis", "sequential"
	cfg.Driver.Redlock.NodeTimeout = 200 * time.Millisecond
	cfg.Workload.Workers, cfg.Workload.Duration, cfg.Workload.Warmup = 4, 1500*time.Millisecond, 200*time.Millisecond
	cfg.RTTPerMaster = []time.Duration{time.Millisecond, time.Millisecond, 2 * time.Millisecond}
	cfg.Faults = []string{"latency:masters=2:ms=20:jitter=2:at=400ms:for=500ms", "partition:masters=3:at=400ms:for=300ms"}
	c := measureCell(t, ctx, cfg, lab.Observers{})
	r := c.Run
	if want := "redlock/goredis/sequential/uncontended/rtt=1ms,1ms,2ms"; r.Name != want {
		t.Errorf("name %q, want %q", r.Name, want)
	}
	if r.Counts.Acquired == 0 {
		t.Fatal("nothing acquired")
	}
	// Sequential: acquire and release each ask all 3 masters in turn.
	if p50, floor := r.LatencyUS["cycle"].P50, 0.95*2*4000.0; p50 < floor {
		t.Errorf("cycle p50 %.0f µs: under 2 × (1+1+2) ms of round trips", p50)
	}
	if r.Cost == nil || r.Cost.DelayCPUUSPerCycle <= 0 {
		t.Errorf("cost %+v: the delay line's CPU not reported", r.Cost)
	}
	if r.Faults == nil {
		t.Fatal("no fault report")
	}
	actions := map[string]int{}
	for _, e := range r.Faults.Events {
		if e.Err != "" {
			t.Errorf("event %+v failed", e)
		}
		actions[e.Action]++
	}
	if actions["inject"] != 2 || actions["heal"] != 2 {
		t.Errorf("events %+v: want inject and heal of both faults", r.Faults.Events)
	}
	if kids := procs.Children(os.Getpid(), delayline.Arg); len(kids) != 0 {
		t.Errorf("delay lines %v still running after the cell", kids)
	}
}
