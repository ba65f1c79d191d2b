package stats

import (
	"math"
	"slices"

	mstats "github.com/aclements/go-moremath/stats"
	"golang.org/x/perf/benchmath"
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
// level (e.g. Confidence), as benchstat gives it
// (golang.org/x/perf/benchmath.AssumeNothing); where the sample is too
// small for the level, the whole range with the coverage it has. No
// samples: NaN figures. xs is not modified.
func MedianInterval(xs []float64, level float64) MedianCI {
	n := len(xs)
	ci := MedianCI{N: n, Median: Median(xs)}
	switch n {
	case 0:
		ci.Lo, ci.Hi = math.NaN(), math.NaN()
		return ci
	case 1:
		ci.Lo, ci.Hi = xs[0], xs[0]
		return ci
	}
	sum := benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), level)
	ci.Lo, ci.Hi, ci.Level = sum.Lo, sum.Hi, sum.Confidence
	if math.IsInf(ci.Lo, 0) || math.IsInf(ci.Hi, 0) {
		// [min, max] misses the median when every sample lies on one
		// side of it: 2·P(Bin(n, ½) = 0).
		ci.Lo, ci.Hi = slices.Min(xs), slices.Max(xs)
		ci.Level = 1 - 2*mstats.BinomialDist{N: n, P: 0.5}.CDF(0)
	}
	return ci
}

// Enough: the interval has the level asked for (N large enough).
func (c MedianCI) Enough(level float64) bool { return c.Level >= level }

// Overlaps: c's and d's intervals share a point.
func (c MedianCI) Overlaps(d MedianCI) bool { return c.Lo <= d.Hi && d.Lo <= c.Hi }

// Excludes: v lies outside the interval.
func (c MedianCI) Excludes(v float64) bool { return v < c.Lo || v > c.Hi }
