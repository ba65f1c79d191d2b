package gate

import (
	"math"

	mstats "github.com/aclements/go-moremath/stats"

	"github.com/lockbench/lockbench/results/stats"
)

// The rank tests of unpaired samples are go-moremath's (the statistics
// under golang.org/x/perf's benchstat): the Mann–Whitney U test, exact
// with ties up to 25 samples a side and without up to 50, the normal
// approximation with tie and continuity correction beyond; and the exact
// null distribution of U. Paired rounds use the signed-rank test
// (signedrank.go), which that library does not have.

// median of xs (NaN for none); xs is not modified.
func median(xs []float64) float64 { return stats.Median(xs) }

// uGreater is the p of the one-sided Mann–Whitney U test of "b lies above
// a" (small: b is larger). 1 where the test says nothing (every value
// equal).
func uGreater(a, b []float64) float64 {
	r, err := mstats.MannWhitneyUTest(b, a, mstats.LocationGreater)
	if err != nil {
		return 1
	}
	return r.P
}

// uLess is the p of "b lies below a" (small: b is smaller).
func uLess(a, b []float64) float64 {
	r, err := mstats.MannWhitneyUTest(b, a, mstats.LocationLess)
	if err != nil {
		return 1
	}
	return r.P
}

// uNull is P(U ≤ u) for samples of n1 and n2 without ties, under the null.
func uNull(n1, n2 int) func(u float64) float64 {
	d := mstats.UDist{N1: n1, N2: n2}
	return d.CDF
}

// MinP is the smallest two-sided p-value the exact U test can give for
// samples of n1 and n2: 2·P(U = 0) = 2 / C(n1+n2, n1).
func MinP(n1, n2 int) float64 {
	return math.Min(1, 2*uNull(n1, n2)(0))
}
