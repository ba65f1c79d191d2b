package gate

import (
	"math"
	"sort"
)

// holm adjusts the p-values of tests made together (Holm–Bonferroni): the
// i-th smallest of m becomes the largest of (m−j+1)·p_(j) over j ≤ i,
// capped at 1. A hypothesis is rejected at level α when its adjusted p is
// below α, which keeps the chance of any false rejection among the m at
// most α whatever their dependence. NaN entries (no test made) stay NaN
// and do not count in m.
func holm(ps []float64) []float64 {
	out := make([]float64, len(ps))
	var idx []int
	for i, p := range ps {
		out[i] = math.NaN()
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	m, running := len(idx), 0.0
	for rank, i := range idx {
		running = math.Max(running, math.Min(1, float64(m-rank)*ps[i]))
		out[i] = running
	}
	return out
}
