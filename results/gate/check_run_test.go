package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results"
)

// A tolerance no comparison can be judged with fails the row in the
// library too (the CLI refuses it before reading anything).
func TestGateToleranceCannotJudge(t *testing.T) {
	cur, base := []results.Run{run("a", 100, 1000)}, []results.Run{run("a", 10000, 1000)} // a 99 % drop
	for _, tol := range []float64{math.NaN(), math.Inf(1), -0.1} {
		opt := DefaultOptions()
		opt.ThroughputTol, opt.LatencyTol = tol, tol
		res := Judge(cur, base, opt)
		if !res.Failed {
			t.Errorf("tolerance %v: a 99 %% drop passed: %+v", tol, res.Rows)
		}
	}
}

func TestCheckRun(t *testing.T) {
	good := run("a", 100, 1000)
	good.Counts = results.Counts{Attempts: 10, Acquired: 10, Cycles: 10}
	good.ValidityMarginUS = &results.Percentiles{Count: 10, P50: -5} // late grants: honest
	good.Extra = map[string]any{"offset_ms": -3.0}
	tests := []struct {
		name string
		edit func(r *results.Run)
		want string // "" for none
	}{
		{"plausible", func(*results.Run) {}, ""},
		{"negative p99", func(r *results.Run) { r.LatencyUS["cycle"] = results.Percentiles{Count: 1, P99: -1} }, "latency_us.cycle.p99 -1"},
		{"negative count", func(r *results.Run) { r.Counts.Attempts = -1 }, "counts.attempts -1"},
		{"negative throughput", func(r *results.Run) { r.Throughput.CyclesPerS = -5 }, "throughput.cycles_per_s -5"},
		{"negative duration", func(r *results.Run) { r.DurationS = -1 }, "duration_s -1"},
		{"NaN throughput", func(r *results.Run) { r.Throughput.CyclesPerS = math.NaN() }, "impossible value"},
		{"infinite latency", func(r *results.Run) { r.LatencyUS["cycle"] = results.Percentiles{Count: 1, P99: math.Inf(1)} }, "impossible value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good
			r.LatencyUS = map[string]results.Percentiles{"cycle": good.LatencyUS["cycle"]}
			tt.edit(&r)
			err := CheckRun(r)
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Fatalf("CheckRun: %v, want %q", err, tt.want)
			}
		})
	}
}
