package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/results/capacity"
	"github.com/lockbench/lockbench/internal/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestWriteKnees: each strategy's knee in the unit of what was stepped, or
// why no step held.
func TestWriteKnees(t *testing.T) {
	steps := []capacity.Step{{Rate: 1000, Workers: 4, CyclesPerS: 990, P99US: 800, OK: true}, {Rate: 2000, Workers: 8, CyclesPerS: 1500, P99US: 5000, Reason: "p99 over"}}
	cases := []struct {
		name   string
		by     By
		sweeps []capacity.Sweep
		want   []string
	}{
		{"rate", ByRate, []capacity.Sweep{{Name: "s1", Knee: 0, Steps: steps}}, []string{"s1", "1000/s", "990", "800"}},
		{"workers", ByWorkers, []capacity.Sweep{{Name: "s1", Knee: 0, Steps: steps}}, []string{"4 workers", "990"}},
		{"none held", ByRate, []capacity.Sweep{{Name: "s2", Knee: -1, Steps: steps[1:]}}, []string{"s2", "none", "every step failed,", "down to rate 2000:"}},
		{"confirmed: bracket and spread", ByRate, []capacity.Sweep{{Name: "s3", Knee: 0, BadLoad: 1100, Steps: []capacity.Step{{Rate: 1000, Workers: 4,
			CyclesPerS: 990, CyclesPerSMin: 980, CyclesPerSMax: 995, P99US: 800, P99MinUS: 700, P99MaxUS: 1900, Samples: 3, OK: true}}}},
			[]string{"1000–1100/s (+10%)", "990 [980–995]", "800 [700–1900]", "by rate: an open loop", "offered rate"}},
		{"a wide bracket is named", ByRate, []capacity.Sweep{{Name: "s4", Knee: 0, BadLoad: 1500, Steps: steps[:1]}},
			[]string{"1000–1500/s (+50%)", "s4: the capacity bracket is wider than 30% of the knee; more --refine narrows it"}},
		{"by workers says closed loop", ByWorkers, []capacity.Sweep{{Name: "s1", Knee: 0, Steps: steps}}, []string{"by workers: a closed loop", "no step failed"}},
		{"no steps", ByRate, []capacity.Sweep{{Name: "empty", Knee: -1}}, []string{"knee: highest load with cycle p99 < 2ms"}},
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
		st   capacity.Step
		want string
	}{
		{capacity.Step{CyclesPerS: 990.4, P99US: 800, OK: true}, "step s: 990 cycles/s, cycle p99 800 µs: ok"},
		{capacity.Step{CyclesPerS: 1500, P99US: 5000, Reason: "p99 over"}, "step s: 1500 cycles/s, cycle p99 5000 µs: over: p99 over"},
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
	step("s", capacity.Step{CyclesPerS: 990.4, P99US: 800, OK: true})
	step("t", capacity.Step{CyclesPerS: 10, P99US: 5000, Reason: "p99 over"})
	if want := "step s: 990 cycles/s, cycle p99 800 µs: ok\nstep t: 10 cycles/s, cycle p99 5000 µs: over: p99 over\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// TestTable: the knees replace the runs table on stdout and sweep.json
// joins Out; when stdout is CSV, benchmark lines or the JSON, the knees
// go on the log instead.
func TestTable(t *testing.T) {
	res := result{Sweeps: []capacity.Sweep{{Name: "s1", Knee: 0, Steps: []capacity.Step{{Rate: 1000, CyclesPerS: 990, P99US: 800, OK: true}}}}}
	c := Config{Op: "cycle", SLO: 2 * time.Millisecond, By: ByRate}
	for _, tc := range []struct {
		name  string
		w     output.Writer
		onLog bool
	}{
		{"table", output.Writer{}, false},
		{"table by name", output.Writer{Format: output.Table}, false},
		{"csv", output.Writer{Format: output.CSV}, true},
		{"gobench", output.Writer{Format: output.GoBench}, true},
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
