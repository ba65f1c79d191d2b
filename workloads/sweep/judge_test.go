package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

func TestJudge(t *testing.T) {
	cfg := Config{Op: "cycle", SLO: 2 * time.Millisecond}
	strict := cfg
	strict.MaxErrorRate = noErrors
	run := func(p99 float64, cps float64, errs, viol int64) schema.Run {
		return schema.Run{LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 1000, P99: p99}},
			Throughput: schema.Throughput{CyclesPerS: cps},
			Counts:     schema.Counts{Attempts: 10000, Errors: errs, Violations: viol}}
	}
	interrupted := run(1500, 900, 0, 0)
	interrupted.Interrupted = true
	closed := lab.Config{}
	open := lab.Config{}
	open.Workload.Rate = 1000
	tests := []struct {
		name string
		cfg  Config
		cell lab.Config
		run  schema.Run
		ok   bool
		why  string
	}{
		{"within the SLO", cfg, closed, run(1500, 900, 0, 0), true, ""},
		{"p99 over the SLO", cfg, closed, run(2500, 900, 0, 0), false, "p99 2.5ms over the SLO 2ms"},
		{"a stray timeout is tolerated", cfg, closed, run(1500, 900, 5, 0), true, ""},
		{"errors beyond the rate", cfg, closed, run(1500, 900, 50, 0), false, "50 errors/timeouts in 10000 attempts"},
		{"NoErrors: one error fails", strict, closed, run(1500, 900, 1, 0), false, "1 errors/timeouts"},
		{"a violation", cfg, closed, run(1500, 900, 0, 1), false, "1 violations"},
		{"open loop falling behind", cfg, open, run(1500, 800, 0, 0), false, "kept up with 80% of the rate"},
		{"open loop keeping up", cfg, open, run(1500, 950, 0, 0), true, ""},
		{"closed loop: no rate to keep", cfg, closed, run(1500, 10, 0, 0), true, ""},
		{"interrupted", cfg, closed, interrupted, false, "interrupted"},
		{"every reason", cfg, open, run(2500, 100, 50, 1), false, "over the SLO 2ms; 50 errors/timeouts in 10000 attempts; 1 violations; kept up with 10% of the rate"},
		{"no cycle measured (p99 0 of nothing)", cfg, closed, schema.Run{LatencyUS: map[string]schema.Percentiles{"cycle": {}},
			Counts: schema.Counts{Attempts: 10000}}, false, "no cycle measured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := judge(tt.cfg, tt.cell, tt.run)
			if st.OK != tt.ok || !strings.Contains(st.Reason, tt.why) || tt.ok && st.Reason != "" {
				t.Fatalf("ok=%v reason %q, want ok=%v reason containing %q", st.OK, st.Reason, tt.ok, tt.why)
			}
			if st.Rate != tt.cell.Workload.Rate || st.CyclesPerS != tt.run.Throughput.CyclesPerS || st.P99US != tt.run.LatencyUS["cycle"].P99 {
				t.Fatalf("step %+v does not carry the run's figures", st)
			}
		})
	}
}

// TestJudgeMedians: a load measured several times is judged on the
// medians of p99, cycles/s and the share of failed attempts; one
// violation anywhere fails it; the step carries the spread.
func TestJudgeMedians(t *testing.T) {
	cfg := Config{Op: "cycle", SLO: 2 * time.Millisecond}
	run := func(p99, cps float64, errs, viol int64) schema.Run {
		return schema.Run{LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 1000, P99: p99}},
			Throughput: schema.Throughput{CyclesPerS: cps}, Counts: schema.Counts{Attempts: 10000, Errors: errs, Violations: viol}}
	}
	for _, tc := range []struct {
		name string
		runs []schema.Run
		ok   bool
		why  string
	}{
		{"one slow measurement of three holds", []schema.Run{run(1000, 900, 0, 0), run(5000, 700, 0, 0), run(1500, 950, 0, 0)}, true, ""},
		{"two slow ones fail", []schema.Run{run(3000, 900, 0, 0), run(2500, 700, 0, 0), run(1000, 950, 0, 0)}, false, "p99 2.5ms over the SLO 2ms"},
		{"one burst of timeouts holds", []schema.Run{run(1000, 900, 0, 0), run(1000, 900, 50, 0), run(1000, 900, 1, 0)}, true, ""},
		{"errors in most fail", []schema.Run{run(1000, 900, 40, 0), run(1000, 900, 50, 0), run(1000, 900, 1, 0)}, false, "40 errors/timeouts in 10000 attempts"},
		{"one violation fails", []schema.Run{run(1000, 900, 0, 0), run(1000, 900, 0, 1), run(1000, 900, 0, 0)}, false, "1 violations"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _ := judgeMedians(cfg, lab.Config{}, tc.runs)
			if st.OK != tc.ok || !strings.Contains(st.Reason, tc.why) {
				t.Fatalf("ok=%v reason %q, want ok=%v reason containing %q", st.OK, st.Reason, tc.ok, tc.why)
			}
			if st.Samples != 3 || st.P99MinUS > st.P99US || st.P99US > st.P99MaxUS || st.CyclesPerSMin > st.CyclesPerS || st.CyclesPerS > st.CyclesPerSMax {
				t.Errorf("step %+v: want 3 samples, medians within their ranges", st)
			}
		})
	}
}
