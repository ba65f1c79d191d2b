package lab_test

import (
	"bytes"
	"context"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lockbench/lockbench/internal/testenv/slow"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestMeasureOnLab: one cell on three local masters through the library,
// as a caller outside the CLI would: the window is --duration, the cell
// is named and counts its masters, every grant was seen by the referee,
// nothing failed, and the cost was sampled over the window.
func TestMeasureOnLab(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 3
	cfg.Driver.Client, cfg.Driver.Mux = "rueidis", "pipeline"
	cfg.Workload.Workload, cfg.Workload.Keys, cfg.Workload.Workers = "contended", 2, 8
	cfg.Workload.Duration, cfg.Workload.Warmup = 800*time.Millisecond, 200*time.Millisecond
	// "nothing failed" is asserted: a node timeout scaled for a loaded
	// machine (seen: 88 timeouts at load 11 with the 50 ms default).
	cfg.Driver.Redlock.NodeTimeout = slow.NodeTimeout(cfg.Driver.Redlock.NodeTimeout, cfg.Driver.Redlock.TTL)
	var log bytes.Buffer
	l, err := lab.Up(ctx, cfg.Topology, &log)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if !strings.Contains(log.String(), "starting 3 redis masters… ready") {
		t.Errorf("phase line: %q", log.String())
	}
	// What a person reads in a 100-column terminal: the servers' warnings
	// wrapped under their label, not one line of 170 characters.
	l.Servers(nil, &log)
	if !strings.Contains(log.String(), "appendonly no") {
		t.Errorf("no appendonly warning for masters without persistence: %q", log.String())
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if n := utf8.RuneCountInString(line); n > 100 {
			t.Errorf("a %d-column line in the lab's log: %q", n, line)
		}
	}
	if got := l.Masters(cfg.Driver); got != 3 {
		t.Errorf("Masters = %d, want 3", got)
	}
	c, err := l.Measure(ctx, cfg, lab.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Run
	if r.Name != "redlock/rueidis/pipeline/contended" || r.Masters != 3 {
		t.Errorf("name %q masters %d", r.Name, r.Masters)
	}
	if math.Abs(r.DurationS-0.8) > 0.01 {
		t.Errorf("duration_s %.3f, want 0.8 (the window is --duration)", r.DurationS)
	}
	if r.Counts.Acquired == 0 || r.ValidityMarginUS == nil || r.ValidityMarginUS.Count != r.Counts.Acquired {
		t.Fatalf("acquired %d, referee saw %+v: every grant must be seen", r.Counts.Acquired, r.ValidityMarginUS)
	}
	if r.Counts.Violations != 0 || r.Counts.Errors != 0 || len(r.ErrorsByMaster) != 0 {
		t.Errorf("violations %d errors %d by master %+v", r.Counts.Violations, r.Counts.Errors, r.ErrorsByMaster)
	}
	if r.Cost == nil || r.Cost.ServerCPUSource != "proc" {
		t.Errorf("cost %+v: want server CPU from /proc", r.Cost)
	}
	if c.Hlog == nil || c.Registry == nil {
		t.Error("no interval log or registry")
	}
	if runtime.GOOS == "linux" && r.MemoryProbeNS <= 0 {
		t.Errorf("memory_probe_ns %v: want the machine's state probed around the cell", r.MemoryProbeNS)
	}
}
