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

// probed is sw with its host probed: stalls before and after (ms/s).
func probed(sw []schema.Sweep, before, after float64) []schema.Sweep {
	sw[0].HostBefore, sw[0].HostAfter = &schema.HostNoise{StallMSPerS: before}, &schema.HostNoise{StallMSPerS: after}
	return sw
}

// changed is sw with its host probed and changed under it.
func changed(sw []schema.Sweep) []schema.Sweep {
	sw = probed(sw, 0.2, 9)
	sw[0].HostChanged = "stalls 0.2 → 9.0 ms/s"
	return sw
}

// drifted is sw with the drift seen between its search and its rounds.
func drifted(sw []schema.Sweep, spread float64) []schema.Sweep {
	sw[0].Drift = &schema.SweepDrift{SearchMid: 1000, RoundsMid: 1200, Spread: spread}
	return sw
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
		{"reruns on another host are counted apart", [][]schema.Sweep{probed(sweepAt(1000, 900, 1100), 0.2, 0.3), probed(sweepAt(1050, 1000, 1100), 0.4, 0.2),
			changed(sweepAt(1500, 1400, 1600)), probed(sweepAt(2000, 1900, 2100), 8, 9)},
			[]string{"1 of 3 reruns' knees inside run 1's interval (33 %)", "stalls 0.2 → 9.0 ms/s (changed during the sweep)",
				"stalls 8.0 → 9.0 ms/s (unlike run 1's)",
				"on the host as run 1 found it (probed idle before and after, neither changed): 1 of 1 inside run 1's interval (100 %)"}},
		{"all on one host: no second count", [][]schema.Sweep{probed(sweepAt(1000, 900, 1100), 0.2, 0.3), probed(sweepAt(1500, 1000, 1100), 0.4, 0.2)},
			[]string{"0 of 1 reruns' knees"}},
		{"a sweep's own drift is shown", [][]schema.Sweep{drifted(probed(sweepAt(1000, 900, 1100), 0.2, 0.3), 0.1), sweepAt(1000, 900, 1100)},
			[]string{"stalls 0.2 → 0.3 ms/s; drift ±11 %"}},
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
			if c.name == "all on one host: no second count" && strings.Contains(b.String(), "as run 1 found it") {
				t.Errorf("reruns all on run 1's host are counted twice:\n%s", b.String())
			}
		})
	}
}
