package main

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
)

func TestCompareBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown client", []string{"--clients", "goredis,jedis"}, "jedis"},
		{"unknown mux", []string{"--muxes", "fanout,carrier-pigeon"}, "carrier-pigeon"},
		{"unknown workload", []string{"--workloads", "bursty"}, "bursty"},
		{"duplicate mux", []string{"--muxes", "fanout,fanout"}, "--muxes"},
		{"masters 0", []string{"--masters", "3,0"}, "--masters"},
		{"masters twice", []string{"--masters", "3,3"}, "--masters"},
		{"single client flag", []string{"--client", "goredis"}, "--clients"},
		{"masters with redis", []string{"--redis", "127.0.0.1:1", "--masters", "3"}, "--masters"},
		{"negative batch", []string{"--batch", "-1"}, "--batch"},
		{"negative rtt", []string{"--rtt", "0,-1ms"}, "--rtt"},
		{"rtt twice", []string{"--rtt", "1ms,1ms"}, "--rtt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := cli(t, 10*time.Second, append([]string{"compare"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q: want exit 2 naming %q", code, stderr, tc.want)
			}
		})
	}
}

// TestCompareRuns: rows sorted by throughput, each with its ratio to the
// sequential row of the same client, workload, masters and workers, and its
// fraction of its masters' ceiling.
func TestCompareRuns(t *testing.T) {
	run := func(client, mux string, masters int, cps float64) measured {
		return measured{Run: results.Run{Name: client + "/" + mux, Backend: "redlock", Client: client, Mux: mux,
			Workload: "uncontended", Masters: masters, Workers: 64, Throughput: results.Throughput{CyclesPerS: cps}}}
	}
	runs := compareRuns([]measured{
		run("goredis", "sequential", 5, 100), run("goredis", "pipeline", 5, 1000),
		run("rueidis", "sequential", 5, 200), run("rueidis", "auto", 5, 300),
		run("rueidis", "fanout", 3, 50), // no sequential row for 3 masters
	}, map[int]float64{5: 2000})
	want := []struct {
		name       string
		ratio, ofC float64 // 0: absent
	}{
		{"goredis/pipeline", 10, 0.5}, {"rueidis/auto", 1.5, 0.15}, {"rueidis/sequential", 1, 0.1},
		{"goredis/sequential", 1, 0.05}, {"rueidis/fanout", 0, 0},
	}
	for i, w := range want {
		r := runs[i]
		if r.Name != w.name {
			t.Fatalf("row %d is %s, want %s (sorted by throughput)", i, r.Name, w.name)
		}
		for key, v := range map[string]float64{"vs_sequential": w.ratio, "of_ceiling": w.ofC} {
			p := map[string]*float64{"vs_sequential": r.VsSequential, "of_ceiling": r.OfCeiling}[key]
			got, ok := 0.0, p != nil
			if ok {
				got = *p
			}
			if ok != (v != 0) || math.Abs(got-v) > 1e-9 {
				t.Errorf("%s %s = %v (present %v), want %v", r.Name, key, got, ok, v)
			}
		}
	}
}

// TestCompareMatrix runs a small real matrix and reads its JSON back: every
// cell is there, ratios included.
func TestCompareMatrix(t *testing.T) {
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	redis := startMasters(t, 3)
	out := filepath.Join(t.TempDir(), "c.json")
	code := execute(context.Background(), []string{"compare", "-q", "--redis", redis,
		"--clients", "goredis,rueidis", "--muxes", "sequential,pipeline", "--workloads", "uncontended",
		"--workers", "8", "--warmup", "0s", "--duration", "400ms", "--json", out})
	if code != exitOK {
		t.Fatalf("compare: exit %d", code)
	}
	sum, err := results.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 4 || sum.Interrupted {
		t.Fatalf("%d runs, interrupted %v: want 4 complete runs", len(sum.Runs), sum.Interrupted)
	}
	for i, r := range sum.Runs {
		if r.Counts.Cycles == 0 {
			t.Errorf("%s measured no cycles", r.Name)
		}
		if r.VsSequential == nil {
			t.Errorf("%s has no vs_sequential ratio", r.Name)
		}
		if i > 0 && r.Throughput.CyclesPerS > sum.Runs[i-1].Throughput.CyclesPerS {
			t.Errorf("rows not sorted by throughput at %s", r.Name)
		}
	}
}

// TestCompareInterrupt: Ctrl-C mid-matrix writes what was measured with
// interrupted=true, stops the masters and exits 130.
func TestCompareInterrupt(t *testing.T) {
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	out := filepath.Join(t.TempDir(), "c.json")
	p, pids := startRun(t, "compare", "--masters", "3", "--clients", "goredis", "--muxes", "sequential,fanout",
		"--workloads", "uncontended", "--workers", "4", "--warmup", "0s", "--duration", "60s", "--json", out)
	p.waitLine(t, "now:") // the first cell's first second measured
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := p.cmd.Wait()
	if p.cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Fatalf("exit %d (%v), want %d", p.cmd.ProcessState.ExitCode(), err, exitInterrupted)
	}
	waitGone(t, pids)
	var sum results.Summary
	readJSON(t, out, &sum)
	if !sum.Interrupted || len(sum.Runs) != 1 || !sum.Runs[0].Interrupted || sum.Runs[0].Counts.Cycles == 0 {
		t.Fatalf("interrupted %v, %d runs: want the one cut-short cell with its cycles", sum.Interrupted, len(sum.Runs))
	}
}
