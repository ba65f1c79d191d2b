package gate

import (
	"math"
	"strings"
	"testing"
)

// TestUndecidedNote: an undecided row whose printed interval already keeps
// its bad end within the tolerance is not said to reach past it; the note
// names the adjustment that still stands between it and a pass.
func TestUndecidedNote(t *testing.T) {
	for _, tc := range []struct {
		name         string
		lo, hi       float64
		higherBetter bool
		m            int
		want         string
	}{
		{"throughput, low end within 10 %", -0.097, 0.035, true, 8, "within 10 % on its own, not yet once adjusted for 8 metrics"},
		{"throughput, low end past 10 %", -0.106, 0.041, true, 8, "the interval reaches past 10 %"},
		{"throughput, only the good end past", -0.026, 0.139, true, 8, "within 10 % on its own"},
		{"cpu, high end within 10 %", -0.044, 0.098, false, 8, "within 10 % on its own"},
		{"cpu, high end past 10 %", -0.044, 0.106, false, 8, "the interval reaches past 10 %"},
		{"one metric: no adjustment to blame", -0.097, 0.035, true, 1, "the interval reaches past 10 %"},
		{"no interval", math.NaN(), math.NaN(), true, 8, "the interval reaches past 10 %"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := undecidedNote(Row{Lo: tc.lo, Hi: tc.hi, Tol: 0.10}, tc.higherBetter, tc.m)
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("note %q, want it to start %q", got, tc.want)
			}
		})
	}
}
