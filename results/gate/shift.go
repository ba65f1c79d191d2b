package gate

import (
	"math"
	"sort"
)

// Shift is how far sample b lies above sample a: the Hodges–Lehmann
// estimate (the median of every difference b_j − a_i) with its
// distribution-free interval, and the one-sided rank tests a verdict
// needs. No distribution is assumed; the two samples are assumed
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
// tau with the Mann–Whitney U test (b against a, and b − tau against a).
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
	s := hodgesLehmann(d, uNull(n1, n2), alpha)
	shifted := make([]float64, n2)
	for i, y := range b {
		shifted[i] = y - tau
	}
	s.PAbove, s.PBelow = uGreater(a, b), uLess(a, shifted)
	return s
}

// pairedShiftTest is shiftTest for paired samples: b[i] measured beside
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
	nd := signedRankNull(n)
	s := hodgesLehmann(w, nd.lower, alpha)
	s.PAbove, s.PBelow = nd.upper(countAbove(w, 0)), nd.lower(countAbove(w, tau))
	return s
}

func noShift() Shift {
	return Shift{Est: math.NaN(), Lo: math.Inf(-1), Hi: math.Inf(1), PAbove: 1, PBelow: 1}
}

// hodgesLehmann is the Hodges–Lehmann estimate over d (pairwise
// differences or Walsh averages; sorted in place) and its interval: the
// k-th smallest and largest of d, k the largest count with
// P(statistic < k) ≤ alpha/2 under the statistic's null cdf.
func hodgesLehmann(d []float64, cdf func(float64) float64, alpha float64) Shift {
	sort.Float64s(d)
	n := len(d)
	s := Shift{Est: median(d), Lo: math.Inf(-1), Hi: math.Inf(1), PAbove: 1, PBelow: 1}
	k := 0
	for k < n/2 && cdf(float64(k)) <= alpha/2 {
		k++
	}
	if k > 0 {
		s.Lo, s.Hi = d[k-1], d[n-k]
	}
	return s
}

// countAbove is the signed-rank statistic of the shift delta counted on
// the sorted Walsh averages w: how many lie above delta, ties half.
func countAbove(w []float64, delta float64) float64 {
	n := len(w)
	above := n - sort.Search(n, func(i int) bool { return w[i] > delta })
	below := sort.Search(n, func(i int) bool { return w[i] >= delta })
	return float64(above) + float64(n-above-below)/2
}
