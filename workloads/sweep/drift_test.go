package sweep

import (
	"math"
	"testing"
	"time"

	"github.com/lockbench/lockbench/workloads/lab"
)

// expectObs are n measurements at each of loads holding exactly as often
// as curve says (rounded): a phase with no sampling noise of its own.
func expectObs(curve passCurve, loads []float64, n int) []passObs {
	obs := make([]passObs, len(loads))
	for i, l := range loads {
		obs[i] = passObs{load: l, n: n, held: int(math.Round(curve.p(l) * float64(n)))}
	}
	return obs
}

// TestDriftOf: a curve that moved between the search and the rounds is
// seen as drift of about the distance it moved; the same curve measured
// twice is not; a phase in which every measurement held still gives a
// finite half-way load; a missing phase gives none.
func TestDriftOf(t *testing.T) {
	loads := []float64{10000, 14000, 17000, 20000, 23000, 26000, 30000}
	for _, tc := range []struct {
		name           string
		early, late    passCurve
		least, most    float64 // the spread's bounds
		wantMid, moved float64
	}{
		{"the host moved by half", passCurve{mid: 18000, slope: 15}, passCurve{mid: 27000, slope: 15}, 0.2, 0.35, 18000, 1.5},
		{"the same host", passCurve{mid: 20000, slope: 15}, passCurve{mid: 20000, slope: 15}, 0, 0, 20000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := driftOf(expectObs(tc.early, loads, 40), expectObs(tc.late, loads, 40), 15)
			if d == nil {
				t.Fatal("no drift measured")
			}
			if d.Spread < tc.least || d.Spread > tc.most {
				t.Errorf("spread %.3f, want in [%v, %v] (%+v)", d.Spread, tc.least, tc.most, *d)
			}
			if math.Abs(d.SearchMid/tc.wantMid-1) > 0.03 || math.Abs(d.RoundsMid/d.SearchMid/tc.moved-1) > 0.05 {
				t.Errorf("half-way loads %.0f → %.0f, want %.0f moved %.2f×", d.SearchMid, d.RoundsMid, tc.wantMid, tc.moved)
			}
		})
	}
	held := []passObs{{load: 17000, n: 3, held: 3}, {load: 19000, n: 3, held: 3}, {load: 21000, n: 3, held: 3}}
	if d := driftOf(expectObs(passCurve{mid: 20000, slope: 15}, loads, 3), held, 15); d == nil || math.IsInf(d.RoundsMid, 0) || d.RoundsMid <= 21000 {
		t.Errorf("rounds that all held: drift %+v, want a finite half-way load above 21000", d)
	}
	if d := driftOf(nil, held, 15); d != nil {
		t.Errorf("no search measurement: drift %+v, want none", *d)
	}
}

// TestRerunKneesMoveWithTheHost: reruns on a drifting host land over a
// wider interval than on a steady one, the same curve and draws.
func TestRerunKneesMoveWithTheHost(t *testing.T) {
	c := Config{Base: lab.DefaultConfig(), Start: 200, Factor: 1.5, MaxSteps: 30, Refine: 2, Repeat: 3, SLO: 20 * time.Millisecond}.withDefaults()
	curve := passCurve{mid: 20000, slope: 20}
	obs := expectObs(curve, []float64{11543, 17315, 19480, 21644, 25973}, 6)
	lo0, hi0 := rerunInterval(rerunKnees(c, obs, curve, rerunCount, 0), rerunShare)
	lo, hi := rerunInterval(rerunKnees(c, obs, curve, rerunCount, 0.2), rerunShare)
	if lo > lo0 || hi < hi0 || hi/lo < 1.2*hi0/lo0 {
		t.Errorf("drifting host: reruns in [%v, %v], steady [%v, %v]; want clearly wider", lo, hi, lo0, hi0)
	}
}
