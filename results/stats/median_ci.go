package stats

import (
	"math"
	"sort"
)

// Confidence is the coverage a MedianCI is asked for: 95 %.
const Confidence = 0.95

// MedianCI is the median of a sample with a distribution-free confidence
// interval: two order statistics of the sample, x(k) and x(n+1−k), which
// hold the true median with a probability the binomial distribution gives
// exactly, whatever the samples' distribution (no normality, no bootstrap,
// which says little of 3 to 10 samples). The interval is the narrowest of
// that form covering at least the level asked; a sample too small for it
// (fewer than 6 for 95 %) gets its whole range, [min, max], and Level says
// what that covers (5 samples: 94 %, 4: 88 %, 3: 75 %).
type MedianCI struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	// Level is the interval's coverage: at least the level asked for, or
	// less when N is too small for it; 0 for fewer than 2 samples.
	Level float64 `json:"level"`
}

// MedianInterval is the median of xs and its order-statistics interval at
// level (e.g. Confidence). No samples: NaN figures. xs is not modified.
func MedianInterval(xs []float64, level float64) MedianCI {
	n := len(xs)
	ci := MedianCI{N: n, Median: Median(xs)}
	if n == 0 {
		ci.Lo, ci.Hi = math.NaN(), math.NaN()
		return ci
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	// k from 1: the interval [x(k), x(n+1−k)] misses the median when
	// fewer than k samples lie below it or fewer than k above, each with
	// probability P(Bin(n, ½) ≤ k−1).
	k, cover := 1, coverage(n, 1)
	for k+1 <= n/2 && coverage(n, k+1) >= level {
		k++
		cover = coverage(n, k)
	}
	ci.Lo, ci.Hi, ci.Level = s[k-1], s[n-k], cover
	return ci
}

// Enough: the interval has the level asked for (N large enough).
func (c MedianCI) Enough(level float64) bool { return c.Level >= level }

// Overlaps: c's and d's intervals share a point.
func (c MedianCI) Overlaps(d MedianCI) bool { return c.Lo <= d.Hi && d.Lo <= c.Hi }

// Excludes: v lies outside the interval.
func (c MedianCI) Excludes(v float64) bool { return v < c.Lo || v > c.Hi }

// coverage is P(x(k) ≤ median ≤ x(n+1−k)) for n samples:
// 1 − 2·P(Bin(n, ½) ≤ k−1); 0 when the interval is empty or a point.
func coverage(n, k int) float64 {
	if n < 2 || 2*k > n {
		return 0
	}
	tail := 0.0
	for i := range k {
		tail += binomial(n, i)
	}
	return 1 - 2*tail*math.Pow(0.5, float64(n))
}

// binomial is n choose k as a float (exact to n of a few dozen).
func binomial(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}
