package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMedianInterval: the order statistics chosen and the coverage they
// have, for samples too small for 95 % (the whole range, its own level)
// and large enough (the narrowest pair that reaches 95 %).
func TestMedianInterval(t *testing.T) {
	seq := func(n int) []float64 { // n, n−1, …, 1: unsorted on purpose
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(n - i)
		}
		return xs
	}
	for _, tc := range []struct {
		name           string
		xs             []float64
		median, lo, hi float64
		level          float64
	}{
		{"one: a point, no level", []float64{7}, 7, 7, 7, 0},
		{"two", seq(2), 1.5, 1, 2, 0.5},
		{"three", seq(3), 2, 1, 3, 0.75},
		{"five: the range, 94 %", seq(5), 3, 1, 5, 0.9375},
		{"six: the range reaches 95 %", seq(6), 3.5, 1, 6, 0.96875},
		{"nine: x(2)…x(8)", seq(9), 5, 2, 8, 1 - 2*10.0/512},
		{"ten: x(2)…x(9)", seq(10), 5.5, 2, 9, 1 - 2*11.0/1024},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ci := MedianInterval(tc.xs, Confidence)
			if ci.N != len(tc.xs) || ci.Median != tc.median || ci.Lo != tc.lo || ci.Hi != tc.hi || math.Abs(ci.Level-tc.level) > 1e-12 {
				t.Errorf("%+v, want median %v in [%v, %v] at %v", ci, tc.median, tc.lo, tc.hi, tc.level)
			}
			if ci.Lo > ci.Median || ci.Median > ci.Hi {
				t.Errorf("median %v outside its interval [%v, %v]", ci.Median, ci.Lo, ci.Hi)
			}
		})
	}
	if ci := MedianInterval(nil, Confidence); !math.IsNaN(ci.Median) || !math.IsNaN(ci.Lo) || ci.N != 0 {
		t.Errorf("no samples: %+v, want NaN", ci)
	}
}

// TestMedianIntervalCoverage: the level an interval claims is the share
// of samples whose interval holds the true median, counted over many
// seeded samples of a skewed distribution.
func TestMedianIntervalCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const trials = 20000
	trueMedian := math.Ln2 // of Exp(1)
	for _, n := range []int{5, 7, 12} {
		held, level := 0, 0.0
		for range trials {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = rng.ExpFloat64()
			}
			ci := MedianInterval(xs, Confidence)
			level = ci.Level
			if !ci.Excludes(trueMedian) {
				held++
			}
		}
		if got := float64(held) / trials; math.Abs(got-level) > 0.01 {
			t.Errorf("%d samples: interval held the median in %.3f of trials, claims %.3f", n, got, level)
		}
	}
}
