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

// ShiftTest estimates the shift of b over a and tests it against 0 and
// tau. Exact null distribution up to 40 runs in all, the normal
// approximation with continuity correction beyond.
func ShiftTest(a, b []float64, tau, alpha float64) Shift {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return Shift{Est: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1), PAbove: 1, PBelow: 1}
	}
	d := make([]float64, 0, n1*n2)
	for _, y := range b {
		for _, x := range a {
			d = append(d, y-x)
		}
	}
	sort.Float64s(d)
	mn := len(d)
	s := Shift{Est: Median(d), Lo: math.Inf(-1), Hi: math.Inf(1)}
	nd := newUNull(n1, n2)
	// u(δ) is U of b − δ against a: pairs above δ, ties counting half.
	u := func(delta float64) float64 {
		above := mn - sort.Search(mn, func(i int) bool { return d[i] > delta })
		below := sort.Search(mn, func(i int) bool { return d[i] >= delta })
		return float64(above) + float64(mn-above-below)/2
	}
	s.PAbove = nd.upper(u(0))
	s.PBelow = nd.lower(u(tau))
	// The interval is the k-th smallest and largest difference, k the
	// largest count with P(U < k) ≤ alpha/2.
	k := 0
	for k < mn/2 && nd.lower(float64(k)) <= alpha/2 {
		k++
	}
	if k > 0 {
		s.Lo, s.Hi = d[k-1], d[mn-k]
	}
	return s
}

// uNull is the null distribution of U for samples of n1 and n2.
type uNull struct {
	n1, n2 int
	cdf    []float64 // exact: cdf[x] = P(U ≤ x); nil for the normal approximation
}

func newUNull(n1, n2 int) uNull {
	nd := uNull{n1: n1, n2: n2}
	if n1+n2 <= 40 {
		dist := uDist(n1, n2)
		nd.cdf = make([]float64, len(dist))
		var c float64
		for x, p := range dist {
			c += p
			nd.cdf[x] = c
		}
	}
	return nd
}

// lower is P(U ≤ u).
func (nd uNull) lower(u float64) float64 {
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
	mu := float64(nd.n1*nd.n2) / 2
	sigma := math.Sqrt(float64(nd.n1*nd.n2) * float64(nd.n1+nd.n2+1) / 12)
	return 0.5 * math.Erfc(-(u+0.5-mu)/sigma/math.Sqrt2)
}

// upper is P(U ≥ u), by symmetry of U about n1·n2/2.
func (nd uNull) upper(u float64) float64 {
	return nd.lower(float64(nd.n1*nd.n2) - u)
}
