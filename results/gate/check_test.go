package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// src is a summary of runs started at t (a run's identity), as the gate
// reads it from path.
func src(path string, t int64, runs ...schema.Run) Source {
	return Source{Path: path, Summary: &schema.Summary{Schema: schema.Schema, Started: time.Unix(t, 0),
		Config: json.RawMessage(`{"workload":{"workers":4}}`), Runs: runs}}
}

func withAcquire(r schema.Run) schema.Run {
	r.LatencyUS = map[string]schema.Percentiles{"cycle": r.LatencyUS["cycle"], "acquire": {Count: 100, P99: 300}}
	return r
}

// TestCheck: the gate refuses what it cannot judge with an error naming
// the field (and, nested, the summary), and judges the rest.
func TestCheck(t *testing.T) {
	good := run("a", 10000, 1000)
	noCycle := good
	noCycle.LatencyUS = map[string]schema.Percentiles{"acquire": {Count: 5, P99: 1}}
	negative := good
	negative.Counts.Attempts, negative.Counts.Acquired = -5, -5
	noCounts := good
	noCounts.Counts = schema.Counts{}
	nothing := good
	nothing.NothingMeasured = true
	unknownSchema := src("v9", 1, good)
	unknownSchema.Summary.Schema = "lockbench/v9"
	tol := func(f func(o *Options)) Options { o := DefaultOptions(); f(&o); return o }
	th := func(s string) Options {
		o := DefaultOptions()
		x, err := ParseThreshold(s)
		if err != nil {
			t.Fatal(err)
		}
		o.Thresholds = []Threshold{x}
		return o
	}
	// sides of n runs each, every one its own summary
	side := func(path string, t0 int64, rs []schema.Run) []Source {
		var out []Source
		for i, r := range rs {
			out = append(out, src(fmt.Sprintf("%s%d", path, i), t0+int64(i), r))
		}
		return out
	}
	tests := []struct {
		name      string
		in        Input
		opt       Options
		field     string // "" for a verdict
		want      string // in the error, or the check of a row with the outcome
		outcome   Decision
		nWarnings int
	}{
		{"a run compared with itself", Input{Current: []Source{src("c", 1, good)}, Baseline: []Source{src("c", 1, good)}}, DefaultOptions(), "Baseline", `run "a" is the same run as in "c"`, 0, 0},
		{"99% drop, one run a side", Input{Current: []Source{src("c", 1, run("a", 100, 1000))}, Baseline: []Source{src("b", 2, good)}}, DefaultOptions(), "", "cycles_per_s", Inconclusive, 0},
		{"99% drop, 8 runs a side", Input{Current: side("c", 100, runs("a", 8, 100, 1000, 0.05)), Baseline: side("b", 200, runs("a", 8, 10000, 1000, 0.05))}, DefaultOptions(), "", "cycles_per_s", Regressed, 0},
		{"p99 doubled, acquire compared but never measured", Input{Current: []Source{src("c", 1, run("a", 10000, 2000))}, Baseline: []Source{src("b", 2, good)}},
			tol(func(o *Options) { o.LatencyOp = "acquire" }), "LatencyOp", `acquire: Current "c": run "a" never measured acquire`, 0, 0},
		{"NaN throughput tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.ThroughputTol = math.NaN() }), "ThroughputTol", "NaN: want a finite tolerance", 0, 0},
		{"infinite latency tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.LatencyTol = math.Inf(1) }), "LatencyTol", "+Inf", 0, 0},
		{"negative CPU tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.CPUTol = -0.5 }), "CPUTol", "-0.5", 0, 0},
		{"alpha 1", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.Alpha = 1 }), "Alpha", "want a value in (0, 1)", 0, 0},
		{"unknown op", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.LatencyOp = "bogus" }), "LatencyOp", `"bogus": want one of acquire`, 0, 0},
		{"unknown metric", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.Metrics = []string{"bogus"} }), "Metrics", `"bogus"`, 0, 0},
		{"NaN metric tolerance", Input{Current: []Source{src("c", 1, good)}}, tol(func(o *Options) { o.Metrics = []string{"error_rate=NaN"} }), "Metrics", `"error_rate=NaN": bad tolerance`, 0, 0},
		{"no current summaries", Input{}, DefaultOptions(), "Current", "has no summaries", 0, 0},
		{"current without runs", Input{Current: []Source{src("c", 1)}}, DefaultOptions(), "Current", `"c": runs empty: the summary has no runs`, 0, 0},
		{"baseline without runs", Input{Current: []Source{src("c", 1, good)}, Baseline: []Source{src("b", 2)}}, DefaultOptions(), "Baseline", "no runs", 0, 0},
		{"baseline without the compared latency", Input{Current: []Source{src("c", 1, good)}, Baseline: []Source{src("b", 2, noCycle)}}, DefaultOptions(), "LatencyOp", "never measured cycle", 0, 0},
		{"op unmeasured ignored without a baseline", Input{Current: []Source{src("c", 1, noCycle)}}, th("violations==0"), "", "", pass, 0},
		{"impossible value", Input{Current: []Source{src("c", 1, negative)}}, DefaultOptions(), "Current", "counts.acquired -5", 0, 0},
		{"violations==0 on a summary without counts", Input{Current: []Source{src("c", 1, noCounts)}}, th("violations==0"), "Current", "counts", 0, 0},
		{"a summary that measured nothing", Input{Current: []Source{src("c", 1, nothing)}}, th("violations==0"), "Current", "measured nothing", 0, 0},
		{"a run duplicated inside one summary", Input{Current: []Source{src("c", 1, good, good)}}, th("violations==0"), "Current", "same run as runs[0]", 0, 0},
		{"an unknown schema version", Input{Current: []Source{unknownSchema}}, th("violations==0"), "Current", "unknown schema version", 0, 0},
		{"the same run twice", Input{Current: []Source{src("c", 1, good), src("copy", 1, good)}}, DefaultOptions(), "Current", `run "a" is the same run as in "c"`, 0, 0},
		{"count not met", Input{Current: []Source{src("c", 1, good), src("d", 2, good)}, Count: 3}, DefaultOptions(), "Count", `has 2 run(s) of "a"`, 0, 0},
		{"count met", Input{Current: []Source{src("c", 1, good), src("d", 2, good)}, Count: 2}, th("violations==0"), "", "", pass, 0},
		{"interrupted and another config: warnings", Input{Current: []Source{src("c", 1, good), func() Source {
			s := src("d", 2, good)
			s.Summary.Interrupted, s.Summary.Config = true, json.RawMessage(`{"workload":{"workers":8}}`)
			return s
		}()}}, th("violations==0"), "", "", pass, 2},
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
			if v.Decision != tt.outcome || len(v.Warnings) != tt.nWarnings {
				t.Fatalf("%v with %d warnings %v, want %v with %d: %+v", v.Decision, len(v.Warnings), v.Warnings, tt.outcome, tt.nWarnings, v.Rows)
			}
			if tt.want == "" {
				return
			}
			for _, r := range v.Rows {
				if r.Decision == tt.outcome && r.Check == tt.want {
					return
				}
			}
			t.Fatalf("no %v row for %q: %+v", tt.outcome, tt.want, v.Rows)
		})
	}
}

// TestCheckEnv: a baseline from another environment is named in the
// verdict, and refused with StrictEnv.
func TestCheckEnv(t *testing.T) {
	cur, base := src("c", 1, run("a", 10000, 1000)), src("b", 2, run("a", 10000, 1000))
	cur.Summary.Host = schema.Host{CPUs: 2, CPUModel: "AMD EPYC", Kernel: "6.8"}
	base.Summary.Host = schema.Host{CPUs: 4, CPUModel: "AMD EPYC", Kernel: "6.1"}
	base.Summary.Servers = []schema.Server{{Kind: "redis", Version: "7.2.4"}}
	cur.Summary.Servers = []schema.Server{{Kind: "redis", Version: "7.0.15"}}
	in := Input{Current: []Source{cur}, Baseline: []Source{base}}
	v, err := Check(in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"cpus 4 vs 2", "kernel 6.1 vs 6.8", "servers redis 7.2.4 vs redis 7.0.15"}
	if strings.Join(v.Env, "; ") != strings.Join(want, "; ") {
		t.Errorf("env %q, want %q", v.Env, want)
	}
	var buf bytes.Buffer
	_ = Write(&buf, v, false)
	if !strings.Contains(buf.String(), "baseline from another environment: cpus 4 vs 2") {
		t.Errorf("the table does not name the environment:\n%s", buf.String())
	}
	opt := DefaultOptions()
	opt.StrictEnv = true
	var fe *FieldError
	if _, err := Check(in, opt); !errors.As(err, &fe) || fe.Field != "StrictEnv" || !strings.Contains(err.Error(), "cpus 4 vs 2") {
		t.Errorf("strict: %v, want a StrictEnv error naming the difference", err)
	}
	base.Summary.Host, base.Summary.Servers = cur.Summary.Host, cur.Summary.Servers
	if _, err := Check(in, opt); err != nil {
		t.Errorf("strict, same environment: %v", err)
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
