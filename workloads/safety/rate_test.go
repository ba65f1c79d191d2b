package safety

import (
	"math"
	"testing"
)

// Garwood's exact 95 % Poisson limits, as tabulated (e.g. Ulm, Am J
// Epidemiol 1990; the Garwood rows of standard epidemiology tables).
func TestPoissonIntervalPublished(t *testing.T) {
	for _, c := range []struct {
		k           int64
		lo, hi, tol float64 // tol: half the table's last digit
	}{
		{0, 0, 3.689, 5e-4},
		{1, 0.0253, 5.572, 5e-4},
		{2, 0.2422, 7.225, 5e-4},
		{5, 1.6235, 11.668, 5e-4},
		{10, 4.7954, 18.390, 5e-4},
		{20, 12.22, 30.89, 5e-3},
	} {
		lo, hi := PoissonInterval(c.k, 0.95)
		if math.Abs(lo-c.lo) > c.tol || math.Abs(hi-c.hi) > c.tol {
			t.Errorf("k=%d: [%.4f, %.4f], want [%.4f, %.4f]", c.k, lo, hi, c.lo, c.hi)
		}
	}
}

func TestRateOf(t *testing.T) {
	for _, c := range []struct {
		name           string
		events, grants int64
		per, lo, hi    float64
	}{
		{"zero events: rule of three", 0, 1000, 0, 0, 3000},
		{"zero of a million", 0, 1_000_000, 0, 0, 3},
		{"one event", 1, 1000, 1000, 25.3, 5572},
		{"five events", 5, 1_000_000, 5, 1.6235, 11.668},
		{"every grant", 100, 100, 1e6, 813_636, 1_216_260},
		{"nothing measured", 0, 0, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := RateOf(c.events, c.grants)
			rel := func(got, want float64) bool {
				return math.Abs(got-want) <= 1e-3*math.Max(math.Abs(want), 1)
			}
			if !rel(r.PerMillion, c.per) || !rel(r.Lo, c.lo) || !rel(r.Hi, c.hi) {
				t.Errorf("RateOf(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]",
					c.events, c.grants, r.PerMillion, r.Lo, r.Hi, c.per, c.lo, c.hi)
			}
			if c.grants > 0 && !(r.Hi > 0) {
				t.Errorf("RateOf(%d, %d): upper bound %v, want > 0", c.events, c.grants, r.Hi)
			}
		})
	}
}

func TestGrantsForBound(t *testing.T) {
	for _, c := range []struct {
		bound float64
		want  int64
	}{
		{1, 3_000_000},
		{10, 300_000},
		{1000, 3000},
		{0, math.MaxInt64},
	} {
		if got := GrantsForBound(c.bound); got != c.want {
			t.Errorf("GrantsForBound(%v) = %d, want %d", c.bound, got, c.want)
		}
		if c.bound > 0 {
			if hi := RuleOfThree(c.want) * perMillion; hi > c.bound {
				t.Errorf("%d grants bound the rate at %v per 10⁶, want ≤ %v", c.want, hi, c.bound)
			}
		}
	}
}
