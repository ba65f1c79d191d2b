package schema

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
)

func validRun() Run {
	return Run{Name: "a", DurationS: 1, Throughput: Throughput{CyclesPerS: 10, AttemptsPerS: 10},
		Counts:           Counts{Attempts: 10, Acquired: 10, Cycles: 10},
		LatencyUS:        map[string]Percentiles{"cycle": {Count: 10, P99: 1000}},
		ValidityMarginUS: &Percentiles{Count: 10, P50: -5}, // late grants: honest
		Extra:            map[string]any{"offset_ms": -3.0}}
}

// TestRunValidate: a run is refused for the first thing that makes it no
// result, named by its field.
func TestRunValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(r *Run)
		field string // "" for none
		want  string
	}{
		{"plausible", func(*Run) {}, "", ""},
		{"negative p99", func(r *Run) { r.LatencyUS["cycle"] = Percentiles{Count: 1, P99: -1} }, "latency_us.cycle.p99", "latency_us.cycle.p99 -1"},
		{"negative count", func(r *Run) { r.Counts.Attempts, r.Counts.Acquired = -1, -1 }, "counts.acquired", "counts.acquired -1"},
		{"negative throughput", func(r *Run) { r.Throughput.CyclesPerS = -5 }, "throughput.cycles_per_s", "-5"},
		{"negative duration", func(r *Run) { r.DurationS = -1 }, "duration_s", "duration_s -1"},
		{"NaN throughput", func(r *Run) { r.Throughput.CyclesPerS = math.NaN() }, "", "impossible value"},
		{"infinite latency", func(r *Run) { r.LatencyUS["cycle"] = Percentiles{Count: 1, P99: math.Inf(1)} }, "", "impossible value"},
		{"nothing measured", func(r *Run) { r.NothingMeasured = true }, "nothing_measured", "measured nothing"},
		{"counts missing", func(r *Run) { r.Counts = Counts{} }, "counts", "missing"},
		{"counts that do not add up", func(r *Run) { r.Counts.Busy = 3 }, "counts", "= 13"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := validRun()
			tt.edit(&r)
			wantFieldError(t, r.Validate(), tt.field, tt.want)
		})
	}
}

// TestSummaryValidate: what no verdict can be made of, named by its field.
func TestSummaryValidate(t *testing.T) {
	sum := func(edit func(s *Summary)) *Summary {
		s := &Summary{Schema: Schema, Started: time.Unix(1, 0), Runs: []Run{validRun()}}
		edit(s)
		return s
	}
	tests := []struct {
		name  string
		s     *Summary
		field string
		want  string
	}{
		{"valid", sum(func(*Summary) {}), "", ""},
		{"rounds of one cell", sum(func(s *Summary) {
			a, b := validRun(), validRun()
			a.Repeat, b.Repeat = 1, 2
			s.Runs = []Run{a, b}
		}), "", ""},
		{"unknown schema version", sum(func(s *Summary) { s.Schema = "lockbench/v9" }), "schema", `"lockbench/v9": unknown schema version`},
		{"no runs", sum(func(s *Summary) { s.Runs = nil }), "runs", "no runs"},
		{"a run twice", sum(func(s *Summary) { s.Runs = append(s.Runs, s.Runs[0]) }), "runs[1]", "same run as runs[0]"},
		{"a run measured nothing", sum(func(s *Summary) { s.Runs[0].NothingMeasured = true }), "runs[0].nothing_measured", "measured nothing"},
		{"a run with NaN", sum(func(s *Summary) { s.Runs[0].Fairness = math.NaN() }), "runs[0]", "impossible value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantFieldError(t, tt.s.Validate(), tt.field, tt.want)
		})
	}
}

// wantFieldError: err is nil when want is "", else a FieldError of field
// saying want.
func wantFieldError(t *testing.T, err error, field, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	var fe *fielderr.Error
	if !errors.As(err, &fe) || fe.Field != field || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one of field %q saying %q", err, field, want)
	}
}
