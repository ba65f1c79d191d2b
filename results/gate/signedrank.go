package gate

import "math"

// The Wilcoxon signed-rank test's null distribution, for paired rounds.
// Neither golang.org/x/perf/benchmath nor go-moremath has it; its exact
// values are checked against the published critical values
// (signedrank_test.go).

// rankNull is the signed-rank statistic's distribution when there is no
// shift: symmetric about total/2 on 0…total, exact (cdf) up to 50 pairs,
// normal (sigma) beyond.
type rankNull struct {
	total int
	cdf   []float64 // cdf[x] = P(statistic ≤ x); nil for the normal approximation
	sigma float64
}

func signedRankNull(n int) rankNull {
	nd := rankNull{total: n * (n + 1) / 2, sigma: math.Sqrt(float64(n*(n+1)*(2*n+1)) / 24)}
	if n <= 50 {
		dist := wDist(n)
		nd.cdf = make([]float64, len(dist))
		var c float64
		for x, p := range dist {
			c += p
			nd.cdf[x] = c
		}
	}
	return nd
}

// lower is P(statistic ≤ u).
func (nd rankNull) lower(u float64) float64 {
	if nd.cdf != nil {
		x := int(math.Floor(u))
		switch {
		case x < 0:
			return 0
		case x >= len(nd.cdf):
			return 1
		}
		return math.Min(1, nd.cdf[x])
	}
	return 0.5 * math.Erfc(-(u+0.5-float64(nd.total)/2)/nd.sigma/math.Sqrt2)
}

// upper is P(statistic ≥ u), by symmetry.
func (nd rankNull) upper(u float64) float64 { return nd.lower(float64(nd.total) - u) }

// wDist is the distribution of the signed-rank statistic for n pairs
// without ties: dist[t] is the share of the 2^n sign patterns whose
// positive ranks sum to t.
func wDist(n int) []float64 {
	dist := make([]float64, n*(n+1)/2+1)
	dist[0] = 1
	top := 0
	for r := 1; r <= n; r++ {
		top += r
		for t := top; t >= r; t-- {
			dist[t] += dist[t-r]
		}
	}
	total := math.Ldexp(1, n)
	for t := range dist {
		dist[t] /= total
	}
	return dist
}
