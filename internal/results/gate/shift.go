package gate

import (
	"math"
	"sort"
)

// Shift is how far sample b lies above sample a: the Hodges–Lehmann
// estimate (the median of every difference b_j − a_i) with its
// distribution-free interval, and the one-sided Mann–Whitney tests a
// verdict needs. No distribution is assumed; the two samples are assumed
// independent, each of exchangeable runs (interleaved runs make them so
// for drift that affects both sides alike).
type Shift struct {
	Est    float64 // Hodges–Lehmann estimate
	Lo, Hi float64 // two-sided 1−alpha interval; ±Inf when the samples are too few
	// PAbove is the p of "the shift is ≤ 0" (small: b is larger), PBelow
	// the p of "the shift is ≥ tau" (small: b is less than tau above a).
	PAbove, PBelow float64
}

// shiftTest estimates the shift of b over a and tests it against 0 and
// tau (Mann–Whitney, Hodges–Lehmann). Exact null distribution up to 40
// runs in all, the normal approximation with continuity correction beyond.
func shiftTest(a, b []float64, tau, alpha float64) Shift {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return noShift()
	}
	d := make([]float64, 0, n1*n2)
	for _, y := range b {
		for _, x := range a {
			d = append(d, y-x)
		}
	}
	nd := null{total: n1 * n2, sigma: math.Sqrt(float64(n1*n2) * float64(n1+n2+1) / 12)}
	if n1+n2 <= 40 {
		nd.cdf = cumulative(uDist(n1, n2))
	}
	return shiftOf(d, nd, tau, alpha)
}

// pairedShiftTest is ShiftTest for paired samples: b[i] measured beside
// a[i] (one round), so what the two share (the machine's load at the
// time) cancels in b[i] − a[i]. Wilcoxon signed-rank test, Hodges–Lehmann
// estimate over the Walsh averages; exact up to 50 pairs.
func pairedShiftTest(a, b []float64, tau, alpha float64) Shift {
	n := min(len(a), len(b))
	if n == 0 {
		return noShift()
	}
	w := make([]float64, 0, n*(n+1)/2)
	for i := range n {
		for j := i; j < n; j++ {
			w = append(w, (b[i]-a[i]+b[j]-a[j])/2)
		}
	}
	nd := null{total: n * (n + 1) / 2, sigma: math.Sqrt(float64(n*(n+1)*(2*n+1)) / 24)}
	if n <= 50 {
		nd.cdf = cumulative(wDist(n))
	}
	return shiftOf(w, nd, tau, alpha)
}

func noShift() Shift {
	return Shift{Est: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1), PAbove: 1, PBelow: 1}
}

// shiftOf is the Hodges–Lehmann estimate over d (pairwise differences or
// Walsh averages), its interval and tests, the statistic being the count
// of d above the shift tested (ties half), with null distribution nd.
func shiftOf(d []float64, nd null, tau, alpha float64) Shift {
	sort.Float64s(d)
	n := len(d)
	s := Shift{Est: median(d), Lo: math.Inf(-1), Hi: math.Inf(1)}
	count := func(delta float64) float64 {
		above := n - sort.Search(n, func(i int) bool { return d[i] > delta })
		below := sort.Search(n, func(i int) bool { return d[i] >= delta })
		return float64(above) + float64(n-above-below)/2
	}
	s.PAbove = nd.upper(count(0))
	s.PBelow = nd.lower(count(tau))
	// The interval is the k-th smallest and largest of d, k the largest
	// count with P(statistic < k) ≤ alpha/2.
	k := 0
	for k < n/2 && nd.lower(float64(k)) <= alpha/2 {
		k++
	}
	if k > 0 {
		s.Lo, s.Hi = d[k-1], d[n-k]
	}
	return s
}

// null is a statistic's distribution when there is no shift: symmetric
// about total/2 on 0…total, exact (cdf) or normal (sigma).
type null struct {
	total int
	cdf   []float64 // cdf[x] = P(statistic ≤ x); nil for the normal approximation
	sigma float64
}

func cumulative(dist []float64) []float64 {
	out := make([]float64, len(dist))
	var c float64
	for x, p := range dist {
		c += p
		out[x] = c
	}
	return out
}

// lower is P(statistic ≤ u).
func (nd null) lower(u float64) float64 {
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
func (nd null) upper(u float64) float64 { return nd.lower(float64(nd.total) - u) }

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
