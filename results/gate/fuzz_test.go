package gate

import (
	"math"
	"testing"
)

// FuzzParseThreshold: whatever a user types as --threshold, it parses or
// is refused, never a panic; a parsed threshold names a metric every run
// has, and holds or fails on either side of its value as its operator says.
func FuzzParseThreshold(f *testing.F) {
	for _, s := range []string{"cycle.p99<2ms", "cycles_per_s>20000", "violations==0", "acquire.p50 <= 500us",
		"redlock/*/auto/*:cycle.p999<1s", "x<", "<1", "cycle.p99<1e309", "[:cycle.p99<1", "cycle.p99!=NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		th, err := ParseThreshold(expr)
		if err != nil {
			return
		}
		if _, ok := resolveMetric(th.Metric); !ok {
			t.Fatalf("%q: metric %q is none a run has", expr, th.Metric)
		}
		v := th.Value
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		step := math.Max(1, math.Abs(v)*1e-9)
		below, above := v-step, v+step
		want := map[string][3]bool{ // below, at, above
			"<": {true, false, false}, "<=": {true, true, false}, ">": {false, false, true},
			">=": {false, true, true}, "==": {false, true, false}, "!=": {true, false, true},
		}[th.Op]
		if got := [3]bool{th.Holds(below), th.Holds(v), th.Holds(above)}; below != v && above != v && got != want {
			t.Fatalf("%q: holds below/at/above %v = %v, want %v", expr, v, got, want)
		}
	})
}
