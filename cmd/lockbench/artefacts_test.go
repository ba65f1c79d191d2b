package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// startMasters starts n real redis-server masters for the test.
func startMasters(t *testing.T, n int) string {
	t.Helper()
	if _, err := os.Stat("/usr/bin/redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	r, err := compose.StartRedis(context.Background(), compose.RedisOptions{Masters: n, Persistence: "none"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return strings.Join(secretURLs(r), ",")
}

func runArgs(redis, out string, extra ...string) []string {
	return append([]string{"run", "-q", "--redis", redis, "--workers", "4", "--warmup", "0s",
		"--duration", "1500ms", "--out", out}, extra...)
}

// TestOutHlogMatchesSummary: the .hlog files of a run read back through
// hdrhistogram-go's log reader to the summary's counts and maxima.
func TestOutHlogMatchesSummary(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	redis := startMasters(t, 3)
	out := filepath.Join(t.TempDir(), "run")
	if code := execute(context.Background(), runArgs(redis, out)); code != exit.OK {
		t.Fatalf("run: exit %d", code)
	}
	d, err := rundir.ReadRunDir(out)
	if err != nil {
		t.Fatal(err)
	}
	r := d.Summary.Runs[0]
	logs := d.Logs[r.Name]
	if r.Counts.Cycles == 0 {
		t.Fatal("no cycles measured")
	}
	if n := len(logs["cycle"]); n < 2 {
		t.Fatalf("%d cycle intervals, want one a second", n)
	}
	for op, p := range r.LatencyUS {
		h := logs.Total(op)
		if h == nil {
			t.Fatalf("%s: no .hlog", op)
		}
		if h.TotalCount() != p.Count {
			t.Errorf("%s: hlog count %d, summary %d", op, h.TotalCount(), p.Count)
		}
		if got := record.Summarize(h); got.Max != p.Max || got.P99 != p.P99 {
			t.Errorf("%s: hlog max/p99 %v/%v, summary %v/%v", op, got.Max, got.P99, p.Max, p.P99)
		}
	}
	if logs.Total("cycle").TotalCount() != r.Counts.Cycles {
		t.Errorf("cycle hlog %d, counts.cycles %d", logs.Total("cycle").TotalCount(), r.Counts.Cycles)
	}
}

// TestMergeConcurrentRuns: two runs at once against the same masters merge
// to counts equal to their sums; different configs are refused (exit 2).
func TestMergeConcurrentRuns(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	a, b, redis := concurrentRuns(t)
	tmp := filepath.Dir(a)
	m := filepath.Join(tmp, "m")
	if code := execute(context.Background(), []string{"merge", "-q", a, b, "-o", m}); code != exit.OK {
		t.Fatalf("merge: exit %d", code)
	}
	sa, _ := schema.ReadSummary(filepath.Join(a, "summary.json"))
	sb, _ := schema.ReadSummary(filepath.Join(b, "summary.json"))
	sm, err := schema.ReadSummary(filepath.Join(m, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	ra, rb, rm := sa.Runs[0], sb.Runs[0], sm.Runs[0]
	if rm.Counts.Cycles != ra.Counts.Cycles+rb.Counts.Cycles || rm.Counts.Attempts != ra.Counts.Attempts+rb.Counts.Attempts {
		t.Fatalf("merged counts %+v, inputs %+v + %+v", rm.Counts, ra.Counts, rb.Counts)
	}
	for op, p := range rm.LatencyUS {
		if want := ra.LatencyUS[op].Count + rb.LatencyUS[op].Count; p.Count != want {
			t.Errorf("%s: merged count %d, want %d", op, p.Count, want)
		}
	}
	if rm.Workers != 8 || rm.Throughput.CyclesPerS <= 0 {
		t.Errorf("merged workers %d, cycles/s %v", rm.Workers, rm.Throughput.CyclesPerS)
	}
	// The merged dir is itself mergeable and readable.
	if _, err := rundir.ReadRunDir(m); err != nil {
		t.Fatal(err)
	}

	c := filepath.Join(tmp, "c")
	if code := execute(context.Background(), runArgs(redis, c, "--workers", "2")); code != exit.OK {
		t.Fatalf("run c: exit %d", code)
	}
	if code := execute(context.Background(), []string{"merge", "-q", a, c, "-o", filepath.Join(tmp, "x")}); code != exit.Usage {
		t.Fatalf("merge of different configs: exit %d, want %d", code, exit.Usage)
	}
	if _, err := os.Stat(filepath.Join(tmp, "x")); !os.IsNotExist(err) {
		t.Fatal("refused merge left output behind")
	}
}
