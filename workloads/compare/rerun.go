package compare

import (
	"math"
	"slices"

	"github.com/aclements/go-moremath/mathx"
)

// rerunLevel is the chance asked of a rerun range: that another compare
// with as many rounds, on the same machine, puts the cell's median in it.
// A table of 16 cells read against two reruns is 32 such chances: at
// 95 % each, one or two medians would fall outside by chance alone; at
// 99.9 % (20 rounds: [min, max], 99.96 %) every one should land. Fewer
// rounds cannot reach it and get [min, max] with the chance they have.
const rerunLevel = 0.999

// Range is a rerun range: [Lo, Hi] from a cell's rounds and the chance
// Level that another run's median of as many rounds falls in it.
type Range struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Level float64 `json:"level"`
}

// rerunRange is where another run of a cell's n rounds would put its
// median: the narrowest [x(j), x(n+1−j)] of xs whose chance of holding it
// is at least level, or [min, max] with its own (smaller) chance when no
// order statistics reach the level. The chance assumes the other run's
// rounds vary as this run's do (all 2n rounds exchangeable). It answers a
// different question from the interval of the median (stats.MedianInterval),
// which holds the true median: a rerun's median carries its own noise, so
// its range is wider (6 rounds: [min, max] holds a rerun's median ~90 % of
// the time; 10 rounds: ~98 %; 20 rounds: 99.96 % at least).
func rerunRange(xs []float64, level float64) Range {
	n := len(xs)
	if n < 2 {
		return Range{Lo: math.NaN(), Hi: math.NaN()}
	}
	s := slices.Sorted(slices.Values(xs))
	j := 1
	for j+1 <= n/2 && rerunCoverage(n, j+1) >= level {
		j++
	}
	return Range{Lo: s[j-1], Hi: s[n-j], Level: rerunCoverage(n, j)}
}

// rerunCoverage is a lower bound of P(x(j) ≤ m ≤ x(n+1−j)), with x the n
// rounds of one run and m the median of n more, all 2n exchangeable: their
// order is one of C(2n, n) equally likely interleavings. m falls below
// x(j) only if at least h of the new rounds precede the j-th old one, h =
// ⌈n/2⌉ (for even n this counts a median whose lower middle value alone
// falls below as outside: hence a bound); the range is symmetric, so the
// chance of falling above is the same.
func rerunCoverage(n, j int) float64 {
	h := (n + 1) / 2
	below := 0.0
	// t new rounds before the j-th old one: C(j−1+t, t) orders of those,
	// C(2n−j−t, n−t) of the rest.
	for t := h; t <= n; t++ {
		below += mathx.Choose(j-1+t, t) * mathx.Choose(2*n-j-t, n-t)
	}
	return max(0, 1-2*below/mathx.Choose(2*n, n))
}
