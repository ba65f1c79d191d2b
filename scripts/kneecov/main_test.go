package main

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// sweepAt is a rate sweep whose knee is at knee with interval [lo, hi].
func sweepAt(knee, lo, hi float64) []schema.Sweep {
	return []schema.Sweep{{Name: "redlock/goredis/pipeline/uncontended", Stepped: "rate", Knee: 0,
		Steps: []schema.SweepStep{{Rate: knee, OK: true}}, KneeInterval: []float64{lo, hi}}}
}

// TestReportCoverage: a rerun's knee counts inside the first run's
// interval at its ends too; a knee outside it does not; the all-pairs
// share counts every run's interval against every other knee.
func TestReportCoverage(t *testing.T) {
	for _, c := range []struct {
		name string
		runs [][]schema.Sweep
		want []string
	}{
		{"all inside, ends included", [][]schema.Sweep{sweepAt(1000, 800, 1200), sweepAt(800, 700, 900), sweepAt(1200, 1100, 1300)},
			[]string{"2 of 2 reruns' knees inside run 1's interval (100 %)", "holds 2 of 6 other knees (33 %)"}},
		{"one outside", [][]schema.Sweep{sweepAt(1000, 900, 1100), sweepAt(1050, 1000, 1100), sweepAt(1500, 1400, 1600)},
			[]string{"1 of 2 reruns' knees inside run 1's interval (50 %)"}},
		{"no knee in a rerun is left out", [][]schema.Sweep{sweepAt(1000, 900, 1100), {{Name: "redlock/goredis/pipeline/uncontended", Knee: -1}}},
			[]string{"0 of 0 reruns' knees"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			report(&b, c.runs)
			for _, w := range c.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}
