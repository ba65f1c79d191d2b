package sweep

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/workloads/lab"
)

// drawObs measures curve n times at each of loads.
func drawObs(curve passCurve, loads []float64, n int, seed uint64) []passObs {
	rng := rand.New(rand.NewPCG(seed, 3))
	obs := make([]passObs, len(loads))
	for i, l := range loads {
		obs[i] = passObs{load: l, n: n}
		for range n {
			if rng.Float64() < curve.p(l) {
				obs[i].held++
			}
		}
	}
	return obs
}

// TestFitPassCurve: the fit recovers a known curve from many
// measurements; measurements that separate cleanly still give a finite,
// steep curve between the two loads; with no failure (or no pass) there
// is no curve.
func TestFitPassCurve(t *testing.T) {
	truth := passCurve{mid: 1000, slope: 10}
	loads := []float64{500, 700, 850, 1000, 1150, 1300, 1600, 2000}
	fit, ok := fitPassCurve(drawObs(truth, loads, 400, 1))
	if !ok || math.Abs(fit.mid/truth.mid-1) > 0.03 || math.Abs(fit.slope/truth.slope-1) > 0.15 {
		t.Errorf("fit %+v (%v), want about %+v", fit, ok, truth)
	}
	sep, ok := fitPassCurve([]passObs{{load: 100, n: 3, held: 3}, {load: 200, n: 6, held: 6}, {load: 300, n: 6}})
	if !ok || sep.mid <= 200 || sep.mid >= 300 || math.IsInf(sep.slope, 0) || sep.slope < 5 {
		t.Errorf("separated: fit %+v (%v), want a steep curve between 200 and 300", sep, ok)
	}
	for _, obs := range [][]passObs{{{load: 100, n: 3, held: 3}}, {{load: 100, n: 3}}} {
		if c, ok := fitPassCurve(obs); ok {
			t.Errorf("%+v: fit %+v, want none", obs, c)
		}
	}
}

func TestDisagree(t *testing.T) {
	for _, tc := range []struct {
		obs  []passObs
		want bool
	}{
		{[]passObs{{load: 1, n: 3, held: 3}, {load: 2, n: 3, held: 3}, {load: 3, n: 3}}, false},
		{[]passObs{{load: 1, n: 3, held: 3}, {load: 2, n: 3, held: 2}, {load: 3, n: 3}}, true},
		{[]passObs{{load: 1, n: 3, held: 3}, {load: 2, n: 3}, {load: 3, n: 1, held: 1}}, true},
		{[]passObs{{load: 1, n: 1}, {load: 2, n: 1}}, false},
	} {
		if got := disagree(tc.obs); got != tc.want {
			t.Errorf("%+v: disagree %v, want %v", tc.obs, got, tc.want)
		}
	}
}

// TestRerunIntervalWidens: reruns on a steep curve find nearly one knee;
// on a shallow one, measured as often, their knees spread: the interval
// is wider, and it holds the load met half the time.
func TestRerunIntervalWidens(t *testing.T) {
	c := Config{Base: lab.DefaultConfig(), Start: 200, Factor: 1.5, MaxSteps: 30, Refine: 2, Repeat: 3, SLO: 20 * time.Millisecond}.withDefaults()
	loads := []float64{7695, 11543, 14429, 15872, 17315, 21206}
	width := func(curve passCurve) (float64, float64, float64) {
		obs := drawObs(curve, loads, 6, 2)
		fit, ok := fitPassCurve(obs)
		if !ok {
			t.Fatalf("%+v: no fit of %+v", curve, obs)
		}
		lo, hi := rerunInterval(rerunKnees(c, obs, fit, rerunCount, 0), rerunShare)
		return lo, hi, hi / lo
	}
	lo, hi, steep := width(passCurve{mid: 16500, slope: 60})
	if steep > 1.25 {
		t.Errorf("steep curve: reruns in [%v, %v], want within one bisection step", lo, hi)
	}
	t.Logf("steep: [%v, %v]", lo, hi)
	lo, hi, shallow := width(passCurve{mid: 16500, slope: 6})
	t.Logf("shallow: [%v, %v]", lo, hi)
	if shallow <= steep || lo > 16500 || hi < 16500/1.1 {
		t.Errorf("shallow curve: reruns in [%v, %v] (%.2f× against %.2f× on the steep one), want wider and around 16500", lo, hi, shallow, steep)
	}
}

// TestSweepWidensByReruns: on a modelled lab whose p99 near the capacity
// is noisy enough that its measurements disagree, the sweep's interval
// names the fitted curve and the reruns, and still holds the knee.
func TestSweepWidensByReruns(t *testing.T) {
	named := 0
	for seed := range 5 {
		sw := queueSweep(t, 0.3, uint64(seed), 11)
		if k, iv := sw.Steps[sw.Knee].Rate, sw.KneeInterval; k < iv[0] || k > iv[1] {
			t.Errorf("seed %d: knee %v outside the interval %v", seed, k, iv)
		}
		for _, why := range sw.IntervalWhy {
			if strings.Contains(why, "reruns of the search") && strings.Contains(why, "half the time at") {
				named++
			}
		}
	}
	if named == 0 {
		t.Error("no sweep's interval was widened by reruns on its measurements' curve")
	}
}
