package lab_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/lab"
)

// recorder is a lab.Progress that keeps what it was told.
type recorder struct {
	mu     sync.Mutex
	begins []string
	ticks  int
	ends   int
}

func (r *recorder) Begin(name string, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.begins = append(r.begins, name)
}

func (r *recorder) Tick(time.Duration, *record.Interval, *record.Interval) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ticks++
}

func (r *recorder) End(schema.Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ends++
}

// TestMeasureFaults: faults played during a cell, through the library: a
// master killed and restarted and a partition through the proxies. The
// report holds the specs, the events in order, a recovery per repair, the
// availability timeline per second and the grants per 10 ms; the errors of
// the partitioned master are named by its address; the log tells the
// events; progress is told the cell's phases.
func TestMeasureFaults(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 3
	cfg.Driver.Client, cfg.Driver.Mux = "goredis", "sequential"
	cfg.Driver.Redlock.NodeTimeout = 200 * time.Millisecond
	// The window outlasts the partition's heal (1.6 s in) by enough for a
	// grant after it however slowly a loaded host plays the schedule and
	// runs the workers: a recovery is judged on a grant the window holds.
	cfg.Workload.Workers, cfg.Workload.Duration, cfg.Workload.Warmup = 4, slow.D(2*time.Second), 200*time.Millisecond
	cfg.Faults = []string{"kill:masters=1:at=500ms:restart=immediate", "partition:masters=3:at=1200ms:for=400ms"}
	l := upLab(t, ctx, cfg)
	var log bytes.Buffer
	prog := &recorder{}
	c, err := l.Measure(ctx, cfg, lab.Observers{Log: &log, Progress: prog})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run
	rep := r.Faults
	if rep == nil {
		t.Fatal("no fault report")
	}
	if len(rep.Specs) != 2 || rep.Specs[0].Kind != "kill" || rep.Specs[1].Kind != "partition" {
		t.Errorf("specs %+v", rep.Specs)
	}
	var actions []string
	for _, e := range rep.Events {
		actions = append(actions, e.Action)
	}
	for _, want := range []string{"kill", "restart", "inject", "heal"} {
		if !strings.Contains(strings.Join(actions, " "), want) {
			t.Errorf("events %v: no %s", actions, want)
		}
	}
	if len(rep.Recoveries) < 2 {
		t.Errorf("recoveries %+v: want one per repair", rep.Recoveries)
	}
	for _, rc := range rep.Recoveries {
		if rc.AfterMS < 0 {
			t.Errorf("no grant after %s at %.0f ms: %+v", rc.Fault, rc.AtMS, rep.Grants10ms)
		}
	}
	if len(rep.Timeline) < 2 || len(rep.Grants10ms) < 200 {
		t.Errorf("timeline %d intervals, %d grant buckets", len(rep.Timeline), len(rep.Grants10ms))
	}
	var granted int64
	for _, g := range rep.Grants10ms {
		granted += g
	}
	if granted < r.Counts.Acquired {
		t.Errorf("grant buckets hold %d grants, the window alone %d", granted, r.Counts.Acquired)
	}
	named := false
	for _, m := range r.ErrorsByMaster {
		named = named || m.Index == 3 && m.Master == l.Topo.RedisAddrs[2]
	}
	if !named {
		t.Errorf("errors by master %+v: the partitioned master 3 not named by its address", r.ErrorsByMaster)
	}
	if r.Counts.Violations != 0 {
		t.Errorf("%d violations", r.Counts.Violations)
	}
	if !strings.Contains(log.String(), "kill master 1") {
		t.Errorf("log %q: no kill event", log.String())
	}
	if len(prog.begins) != 1 || prog.begins[0] != r.Name || prog.ticks < 1 || prog.ends != 1 {
		t.Errorf("progress: begins %v ticks %d ends %d", prog.begins, prog.ticks, prog.ends)
	}
}

// TestMeasurePeerErrorsByBackend: a peer library that does not say which
// master failed (redsync) has its errors kept under the backend's name: two of three masters killed for good.
func TestMeasurePeerErrorsByBackend(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 3
	cfg.Driver.Backend = "redsync"
	cfg.Workload.Workers, cfg.Workload.Duration, cfg.Workload.Warmup = 2, 1500*time.Millisecond, 0
	cfg.Faults = []string{"kill:masters=1,2:at=300ms:restart=never"}
	c := measureCell(t, ctx, cfg, lab.Observers{})
	if c.Run.Counts.Errors+c.Run.Counts.Timeouts == 0 {
		t.Fatalf("no failed attempt while 2 of 3 masters were down: %+v; faults %+v", c.Run.Counts, c.Run.Faults)
	}
	if len(c.Run.ErrorsByMaster) != 1 || c.Run.ErrorsByMaster[0].Master != "redsync" {
		t.Errorf("errors by master %+v: want one entry named redsync", c.Run.ErrorsByMaster)
	}
}
