package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
)

func TestJudgeStep(t *testing.T) {
	sc := SweepConfig{Op: "cycle", SLO: 2 * time.Millisecond, MaxErrorRate: 0.001}
	run := func(p99 float64, cps float64, errs, viol int64) results.Run {
		return results.Run{LatencyUS: map[string]results.Percentiles{"cycle": {Count: 1000, P99: p99}},
			Throughput: results.Throughput{CyclesPerS: cps},
			Counts:     results.Counts{Attempts: 10000, Errors: errs, Violations: viol}}
	}
	closed := RunConfig{}
	open := RunConfig{}
	open.Workload.Rate = 1000
	tests := []struct {
		name string
		cfg  RunConfig
		run  results.Run
		ok   bool
		why  string
	}{
		{"within the SLO", closed, run(1500, 900, 0, 0), true, ""},
		{"p99 over the SLO", closed, run(2500, 900, 0, 0), false, "over the SLO"},
		{"a stray timeout is tolerated", closed, run(1500, 900, 5, 0), true, ""},
		{"errors beyond the rate", closed, run(1500, 900, 50, 0), false, "errors"},
		{"a violation", closed, run(1500, 900, 0, 1), false, "violations"},
		{"open loop falling behind", open, run(1500, 800, 0, 0), false, "kept up"},
		{"open loop keeping up", open, run(1500, 950, 0, 0), true, ""},
		{"no cycle measured (p99 0 of nothing)", closed, results.Run{LatencyUS: map[string]results.Percentiles{"cycle": {}},
			Counts: results.Counts{Attempts: 10000}}, false, "no cycle measured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := judgeStep(sc, tt.cfg, tt.run)
			if st.OK != tt.ok || !strings.Contains(st.Reason, tt.why) {
				t.Fatalf("ok=%v reason %q, want ok=%v reason containing %q", st.OK, st.Reason, tt.ok, tt.why)
			}
		})
	}
}

// TestSearchKnee drives the search against a fake capacity: loads up to
// capacity hold, above it they fail.
func TestSearchKnee(t *testing.T) {
	tests := []struct {
		name             string
		start, capacity  float64
		maxSteps, refine int
		wantKnee         float64
		wantSteps        []float64
	}{
		{"up then bisect", 100, 500, 20, 3, 500, []float64{100, 200, 400, 800, 600, 500, 550}},
		{"first step fails: down", 1000, 300, 20, 1, 250, []float64{1000, 500, 250, 375}},
		{"never fails within max steps", 1, 1e9, 3, 2, 4, []float64{1, 2, 4}},
		{"nothing holds", 4, 0, 20, 2, 0, []float64{4, 2, 1}},
		{"whole loads: no bisection between neighbours", 1, 1, 20, 5, 1, []float64{1, 2}},
	}
	rate := SweepConfig{By: "rate", Start: 800, Factor: 2, MaxSteps: 20, Base: RunConfig{}}
	rate.Base.Workload.Duration = time.Second
	var steps []float64
	_ = searchKnee(context.Background(), rate, func(load float64) (bool, error) { steps = append(steps, load); return false, nil })
	if fmt.Sprint(steps) != "[800 400 200 100]" {
		t.Errorf("rate step-down %v: want it to stop at 100 cycles a step", steps)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := SweepConfig{By: "workers", Start: tt.start, Factor: 2, MaxSteps: tt.maxSteps, Refine: tt.refine}
			var steps []float64
			knee := 0.0
			err := searchKnee(context.Background(), sc, func(load float64) (bool, error) {
				steps = append(steps, load)
				ok := load <= tt.capacity
				if ok {
					knee = max(knee, load)
				}
				return ok, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if knee != tt.wantKnee || fmt.Sprint(steps) != fmt.Sprint(tt.wantSteps) {
				t.Fatalf("knee %v steps %v, want %v %v", knee, steps, tt.wantKnee, tt.wantSteps)
			}
		})
	}
}

func TestSweepFindsKnee(t *testing.T) {
	redis := startMasters(t, 1)
	out := filepath.Join(t.TempDir(), "sweep")
	args := []string{"sweep", "--redis", redis, "--by", "workers", "--start", "1", "--factor", "2", "--max-steps", "2",
		"--refine", "0", "--slo", "1s", "--max-error-rate", "0.05", "--duration", "1s", "--warmup", "0s", "--out", out}
	if code := execute(context.Background(), args); code != exitOK {
		t.Fatalf("sweep: exit %d", code)
	}
	var sw []capacity.Sweep
	readJSON(t, filepath.Join(out, "sweep.json"), &sw)
	if len(sw) != 1 || len(sw[0].Steps) != 2 || sw[0].Knee != 1 || sw[0].Steps[1].Workers != 2 {
		t.Fatalf("sweep %+v", sw)
	}
	d, err := results.ReadRunDir(out)
	if err != nil || len(d.Summary.Runs) != 2 || len(d.Logs) != 2 {
		t.Fatalf("out dir: %v, %d runs, %d logs", err, len(d.Summary.Runs), len(d.Logs))
	}
}

func TestSweepUsage(t *testing.T) {
	for _, args := range [][]string{
		{"sweep", "--by", "qps"},
		{"sweep", "--slo", "0s"},
		{"sweep", "--factor", "1"},
		{"sweep", "--op", "lunch"},
		{"sweep", "--muxes", "fanout,telepathy"},
		{"sweep", "--rate", "100"},
		{"sweep", "--max-error-rate", "2"},
	} {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			if code := execute(context.Background(), args); code != exitUsage {
				t.Fatalf("exit %d, want %d", code, exitUsage)
			}
		})
	}
}
