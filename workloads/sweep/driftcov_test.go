package sweep

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// driftingSweep sweeps the modelled queue of queueSweep on a host whose
// capacity wanders: its logarithm an AR(1) process over the measurements
// (φ per measurement, stationary σ spread), each sweep starting at a
// draw of it, as reruns far apart in time do. It returns the sweep and
// its interval as the sweep would have had it without the drift (the
// same measurements replayed with the rounds not told apart).
func driftingSweep(t *testing.T, phi, spread float64, seed uint64) (sw schema.Sweep, steady []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 11))
	x := spread * rng.NormFloat64()
	f := &fakeLab{p99: func(load float64) float64 {
		capacity := 20000 * math.Exp(x)
		x = phi*x + spread*math.Sqrt(1-phi*phi)*rng.NormFloat64()
		return 5000 / (1 - math.Min(load/capacity, 0.999)) * math.Exp(0.2*rng.NormFloat64())
	}}
	cfg, res := modelSweep(t, f)
	sw = res.Sweeps[0]
	// The same measurements, the rounds not told apart from the search.
	s := &strategy{cfg: cfg, samples: map[float64][]int{}, sw: sw}
	for i, c := range res.Cells {
		s.cells = append(s.cells, c)
		load := f.measured[i].Workload.Rate
		s.samples[load] = append(s.samples[load], i)
	}
	lo, hi, why := kneeInterval(s.cfg, sw.Steps[sw.Knee].Rate, sw.Probes)
	s.sw.KneeInterval, s.sw.IntervalWhy = []float64{lo, hi}, why
	s.widenByReruns(passes(s.cfg, s.byLoad(0, len(s.cells))), nil, nil)
	return sw, s.sw.KneeInterval
}

// TestKneeIntervalCoversDriftingHost: on a modelled host whose capacity
// wanders over minutes (σ 15 % of its logarithm, each measurement keeping
// 95 % of the last one's offset), 30 sweeps are reruns of each other; the
// intervals that move their reruns by the drift the sweeps saw between
// their search and their rounds hold clearly more of the other runs'
// knees than the same measurements' intervals without it. On a steady
// host the drift seen is small: the intervals widen little. Seeded: the
// same every time; the model's coverage, not a machine's.
func TestKneeIntervalCoversDriftingHost(t *testing.T) {
	for _, tc := range []struct {
		name          string
		spread        float64
		least, gained float64 // coverage at least; more than without the drift by at least
		grown         float64 // the median interval's hi/lo over the one without the drift at most
	}{
		{"drifting host", 0.15, 0.75, 0.04, 10},
		{"steady host", 0, 0.9, -1, 1.1},
	} {
		t.Run(tc.name, func(t *testing.T) { driftCoverage(t, tc.spread, tc.least, tc.gained, tc.grown) })
	}
}

func driftCoverage(t *testing.T, spread, least, gained, grown float64) {
	var knees, widths, steadyWidths []float64
	var ivs, steady [][]float64
	moved := 0
	for seed := range 30 {
		sw, st := driftingSweep(t, 0.95, spread, uint64(seed))
		widths, steadyWidths = append(widths, sw.KneeInterval[1]/sw.KneeInterval[0]), append(steadyWidths, st[1]/st[0])
		knees, ivs, steady = append(knees, sw.Steps[sw.Knee].Rate), append(ivs, sw.KneeInterval), append(steady, st)
		if sw.Drift != nil && sw.Drift.Spread > 0 {
			moved++
		}
	}
	with, without := pairCoverage(knees, ivs), pairCoverage(knees, steady)
	w, w0 := stats.Median(widths), stats.Median(steadyWidths)
	t.Logf("drift seen in %d of 30; coverage %.2f, without the drift %.2f; median width %.2f× (without %.2f×); knees %v", moved, with, without, w, w0, knees)
	if with < least || with-without < gained {
		t.Errorf("coverage %.2f (without the drift %.2f), want at least %.2f and %.2f more", with, without, least, gained)
	}
	if w > grown*w0 {
		t.Errorf("median interval %.2f× wide, without the drift %.2f×: want at most %.2f times that", w, w0, grown)
	}
}
