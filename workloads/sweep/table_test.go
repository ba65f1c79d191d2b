package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestWriteKnees: each strategy's knee in the unit of what was stepped, or
// why no step held.
func TestWriteKnees(t *testing.T) {
	steps := []schema.SweepStep{{Rate: 1000, Workers: 4, CyclesPerS: 990, P99US: 800, OK: true}, {Rate: 2000, Workers: 8, CyclesPerS: 1500, P99US: 5000, Reason: "p99 over"}}
	cases := []struct {
		name   string
		by     By
		sweeps []schema.Sweep
		want   []string
	}{
		{"rate", ByRate, []schema.Sweep{{Name: "s1", Knee: 0, Steps: steps}}, []string{"s1", "1000", "990", "800", "load in cycles/s offered"}},
		{"workers", ByWorkers, []schema.Sweep{{Name: "s1", Knee: 0, Steps: steps}}, []string{"s1", " 4 ", "990", "load in workers"}},
		{"none held", ByRate, []schema.Sweep{{Name: "s2", Knee: -1, Steps: steps[1:]}}, []string{"s2", "none", "every step failed,", "down to rate 2000:"}},
		{"confirmed: bracket and spread", ByRate, []schema.Sweep{{Name: "s3", Knee: 0, BadLoad: 1100, Steps: []schema.SweepStep{{Rate: 1000, Workers: 4,
			CyclesPerS: 990, CyclesPerSMin: 980, CyclesPerSMax: 995, P99US: 800, P99MinUS: 700, P99MaxUS: 1900, Samples: 3, OK: true}}}},
			[]string{"1000–1100 (+10%)", "990 [980–995]", "800 [700–1900]", "by rate: an open loop", "offered rate"}},
		{"a wide bracket is named", ByRate, []schema.Sweep{{Name: "s4", Knee: 0, BadLoad: 1500, Steps: steps[:1]}},
			[]string{"1000–1500 (+50%)", "s4: the capacity bracket is wider than 30% of the knee; more --refine narrows it"}},
		{"by workers says closed loop", ByWorkers, []schema.Sweep{{Name: "s1", Knee: 0, Steps: steps}}, []string{"by workers: a closed loop", "no step failed"}},
		{"interval and safe rate", ByRate, []schema.Sweep{{Name: "s5", Knee: 0, BadLoad: 1100, SafeRate: 900, KneeInterval: []float64{900, 1100},
			IntervalWhy: []string{"1000/s met the SLO in 2 of 3 rounds"}, Probes: []schema.SweepProbe{{Load: 1000, OK: []bool{true, false, true}}},
			Steps: []schema.SweepStep{{Rate: 1000, CyclesPerS: 990, P99US: 800, ServiceP99US: 300, OK: true}}}}, []string{"service 300", "900–1100", "s5: safe rate 900/s", "s5: a rerun's knee lands in 900–1100/s (3 interleaved rounds",
			"1000/s held 2/3", "in 2 of 3 rounds"}},
		{"usl", ByWorkers, []schema.Sweep{{Name: "s6", Knee: 0, Steps: steps, USL: &schema.USL{Lambda: 1000, Sigma: 0.05, Kappa: 0.001,
			PeakWorkers: 30.8, R2: 0.995}}}, []string{"s6: USL fit λ = 1000 cycles/s per worker, σ = 0.0500, κ = 0.001000, peak at 31", "R² = 0.995"}},
		{"no steps", ByRate, []schema.Sweep{{Name: "empty", Knee: -1}}, []string{"knee: highest load with cycle p99 < 2ms"}},
	}
	for _, c := range cases {
		var b strings.Builder
		WriteKnees(&b, c.sweeps, Config{Op: "cycle", SLO: 2 * time.Millisecond, By: c.by})
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b.String())
			}
		}
		if c.name == "no steps" && strings.Contains(b.String(), "empty") {
			t.Errorf("a sweep without steps is listed:\n%s", b.String())
		}
	}
}

func TestStepLine(t *testing.T) {
	for _, c := range []struct {
		st   schema.SweepStep
		want string
	}{
		{schema.SweepStep{CyclesPerS: 990.4, P99US: 800, OK: true}, "step s: 990 cycles/s, cycle p99 800 µs: ok"},
		{schema.SweepStep{CyclesPerS: 1500, P99US: 5000, Reason: "p99 over"}, "step s: 1500 cycles/s, cycle p99 5000 µs: over: p99 over"},
	} {
		if got := stepLine("s", "cycle", c.st); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

func TestResultAddTo(t *testing.T) {
	for _, c := range []struct {
		res         result
		runs        int
		interrupted bool
	}{
		{result{}, 0, false},
		{result{Cells: []lab.Cell{{Run: schema.Run{Name: "a"}}, {Run: schema.Run{Name: "b"}}}}, 2, false},
		{result{Cells: []lab.Cell{{Run: schema.Run{Name: "a"}}}, Interrupted: true}, 1, true},
	} {
		sum := &schema.Summary{Runs: []schema.Run{{Name: "before"}}}
		c.res.AddTo(sum)
		if len(sum.Runs) != 1+c.runs || sum.Interrupted != c.interrupted || sum.Runs[0].Name != "before" {
			t.Errorf("%+v: runs %d interrupted %v", c.res, len(sum.Runs), sum.Interrupted)
		}
	}
}

// TestStepLines: each step's line on the writer; no writer, no observer.
func TestStepLines(t *testing.T) {
	if StepLines(nil, "cycle") != nil {
		t.Error("StepLines(nil): want no step observer")
	}
	var b strings.Builder
	step := StepLines(&b, "cycle")
	step("s", schema.SweepStep{CyclesPerS: 990.4, P99US: 800, OK: true})
	step("t", schema.SweepStep{CyclesPerS: 10, P99US: 5000, Reason: "p99 over"})
	if want := "step s: 990 cycles/s, cycle p99 800 µs: ok\nstep t: 10 cycles/s, cycle p99 5000 µs: over: p99 over\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// TestTable: the knees replace the runs table on stdout and sweep.json
// joins Out; when stdout is CSV, benchmark lines or the JSON, the knees
// go on the log instead.
func TestTable(t *testing.T) {
	res := result{Sweeps: []schema.Sweep{{Name: "s1", Knee: 0, Steps: []schema.SweepStep{{Rate: 1000, CyclesPerS: 990, P99US: 800, OK: true}}}}}
	c := Config{Op: "cycle", SLO: 2 * time.Millisecond, By: ByRate}
	for _, tc := range []struct {
		name  string
		w     output.Writer
		onLog bool
	}{
		{"table", output.Writer{}, false},
		{"table by name", output.Writer{Format: output.Table}, false},
		{"csv", output.Writer{Format: "csv"}, true},
		{"gobench", output.Writer{Format: "gobench"}, true},
		{"json on stdout", output.Writer{JSON: "-"}, true},
	} {
		var stdout, log strings.Builder
		w := tc.w
		Table(&w, res, c, &log)
		if got := strings.Contains(log.String(), "knee:"); got != tc.onLog {
			t.Errorf("%s: knees on the log %v, want %v", tc.name, got, tc.onLog)
		}
		if w.Files["sweep.json"] == nil || w.Print == nil {
			t.Fatalf("%s: files %v, print set %v", tc.name, w.Files, w.Print != nil)
		}
		if err := w.Print(&stdout, nil); err != nil || !strings.Contains(stdout.String(), "knee:") {
			t.Errorf("%s: print %q, %v: want the knees", tc.name, stdout.String(), err)
		}
	}
}

// TestRowLabels: sweeps of one cell name differing in the strategy are
// labelled by it, the cell said once; a lone full name by its strategy;
// names that differ elsewhere or in two parts keep their whole names.
func TestRowLabels(t *testing.T) {
	for _, c := range []struct {
		names  []string
		labels []string
		shared string
	}{
		{[]string{"redlock/goredis/pipeline/uncontended"}, []string{"pipeline"}, "cell redlock/goredis/pipeline/uncontended"},
		{[]string{"redlock/goredis/pipeline/uncontended", "redlock/goredis/fanout/uncontended"}, []string{"pipeline", "fanout"}, "cells redlock/goredis/<strategy>/uncontended"},
		{[]string{"redlock/goredis/pipeline/uncontended", "redlock/rueidis/fanout/uncontended"}, []string{"redlock/goredis/pipeline/uncontended", "redlock/rueidis/fanout/uncontended"}, ""},
		{[]string{"s1"}, []string{"s1"}, ""},
		{[]string{"a/b", "a/b/c"}, []string{"a/b", "a/b/c"}, ""},
		{nil, nil, ""},
	} {
		labels, shared := rowLabels(c.names)
		if shared != c.shared {
			t.Errorf("%v: shared %q, want %q", c.names, shared, c.shared)
		}
		for i, n := range c.names {
			if labels[n] != c.labels[i] {
				t.Errorf("%v: %s labelled %q, want %q", c.names, n, labels[n], c.labels[i])
			}
		}
	}
}
