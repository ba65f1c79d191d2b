package gate

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
)

// src is a summary of runs started at t (a run's identity), as the gate
// reads it from path.
func src(path string, t int64, runs ...results.Run) Source {
	return Source{Path: path, Summary: &results.Summary{Schema: results.Schema, Started: time.Unix(t, 0),
		Config: json.RawMessage(`{"workload":{"workers":4}}`), Runs: runs}}
}

func withAcquire(r results.Run) results.Run {
	r.LatencyUS = map[string]results.Percentiles{"cycle": r.LatencyUS["cycle"], "acquire": {Count: 100, P99: 300}}
	return r
}

// TestCheck: the gate refuses what it cannot judge with an error naming
// the field (and, nested, the summary), and judges the rest.
func TestCheck(t *testing.T) {
	good := run("a", 10000, 1000)
	noCycle := good
	noCycle.LatencyUS = map[string]results.Percentiles{"acquire": {Count: 5, P99: 1}}
	negative := good
	negative.Counts.Attempts = -5
	tol := func(f func(o *Options)) Options { o := DefaultOptions(); f(&o); return o }
	tests := []struct {
		name      string
		in        Input
		opt       Options
		field     string // "" for a verdict
		want      string // in the error, or the failing check
		failed    bool
		nWarnings int
	}{
		{"against itself", Input{Current: []Source{src("c", 1, good)}, Baseline: []Source{src("c", 1, good)}}, DefaultOptions(), "", "", false, 0},
		{"99% drop", Input{Current: []Source{src("c", 1, run("a", 100, 1000))}, Baseline: []Source{src("b", 2, good)}}, DefaultOptions(), "", "cycles_per_s", true, 0},
		{"p99 doubled", Input{Current: []Source{src("c", 1, run("a", 10000, 2000))}, Baseline: []Source{src("b", 2, good)}}, DefaultOptions(), "", "cycle.p99", true, 0},
		{"p99 doubled, acquire compared but never measured", Input{Current: []Source{src("c", 1, run("a", 10000, 2000))}, Baseline: []Source{src("b", 2, good)}},
			tol(func(o *Options) { o.LatencyOp = "acquire" }), "LatencyOp", `acquire: Current "c": run "a" never measured acquire`, false, 0},
		{"p99 of cycle doubled, acquire compared", Input{Current: []Source{src("c", 1, withAcquire(run("a", 10000, 2000)))}, Baseline: []Source{src("b", 2, withAcquire(good))}},
			tol(func(o *Options) { o.LatencyOp = "acquire" }), "", "", false, 0},
		{"NaN throughput tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.ThroughputTol = math.NaN() }), "ThroughputTol", "NaN: want a finite tolerance", false, 0},
		{"infinite latency tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.LatencyTol = math.Inf(1) }), "LatencyTol", "+Inf", false, 0},
		{"negative tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.LatencyTol = -0.5 }), "LatencyTol", "-0.5", false, 0},
		{"alpha 1", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.Alpha = 1 }), "Alpha", "want a value in (0, 1)", false, 0},
		{"unknown op", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.LatencyOp = "bogus" }), "LatencyOp", `"bogus": want one of acquire`, false, 0},
		{"no current summaries", Input{}, DefaultOptions(), "Current", "has no summaries", false, 0},
		{"current without runs", Input{Current: []Source{src("c", 1)}}, DefaultOptions(), "Current", `"c": the summary has no runs`, false, 0},
		{"baseline without runs", Input{Current: []Source{src("c", 1, good)}, Baseline: []Source{src("b", 2)}}, DefaultOptions(), "Baseline", "no runs", false, 0},
		{"baseline without the compared latency", Input{Current: []Source{src("c", 1, good)}, Baseline: []Source{src("b", 2, noCycle)}}, DefaultOptions(), "LatencyOp", "never measured cycle", false, 0},
		{"op unmeasured ignored without a baseline", Input{Current: []Source{src("c", 1, noCycle)}}, DefaultOptions(), "", "", false, 0},
		{"impossible value", Input{Current: []Source{src("c", 1, negative)}}, DefaultOptions(), "Current", "counts.attempts -5", false, 0},
		{"the same run twice", Input{Current: []Source{src("c", 1, good), src("copy", 1, good)}}, DefaultOptions(), "Current", `run "a" is the same run as in "c"`, false, 0},
		{"count not met", Input{Current: []Source{src("c", 1, good), src("d", 2, good)}, Count: 3}, DefaultOptions(), "Count", `has 2 run(s) of "a"`, false, 0},
		{"count met", Input{Current: []Source{src("c", 1, good), src("d", 2, good)}, Count: 2}, DefaultOptions(), "", "", false, 0},
		{"interrupted and another config: warnings", Input{Current: []Source{src("c", 1, good), func() Source {
			s := src("d", 2, good)
			s.Summary.Interrupted, s.Summary.Config = true, json.RawMessage(`{"workload":{"workers":8}}`)
			return s
		}()}}, DefaultOptions(), "", "", false, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := Check(tt.in, tt.opt)
			if tt.field != "" {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != tt.field || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want a %s error naming %q", err, tt.field, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Failed != tt.failed || len(v.Warnings) != tt.nWarnings {
				t.Fatalf("failed %v with %d warnings %v, want %v with %d: %+v", v.Failed, len(v.Warnings), v.Warnings, tt.failed, tt.nWarnings, v.Rows)
			}
			for _, r := range v.Rows {
				if !r.Pass && !strings.Contains(r.Check, tt.want) {
					t.Errorf("row %+v failed, want only %q", r, tt.want)
				}
			}
		})
	}
}

// TestFieldErrorName: a CLI renders the fields as its flags, nested ones too.
func TestFieldErrorName(t *testing.T) {
	err := &FieldError{Field: "LatencyOp", Value: "cycle", Err: fieldErr("Baseline", `"b.json"`, "run %q never measured cycle latency", "a")}
	flag := map[string]string{"LatencyOp": "--op", "Baseline": "--baseline"}
	got := err.Name(func(f string) string { return flag[f] })
	if want := `--op cycle: --baseline "b.json": run "a" never measured cycle latency`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := fieldErr("Count", "", "has 1 run(s)").Name(nil); got != "Count has 1 run(s)" {
		t.Errorf("without a value: %q", got)
	}
}
