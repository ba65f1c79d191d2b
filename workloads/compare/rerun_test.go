package compare

import (
	"math"
	"testing"
)

// TestRerunCoverageByEnumeration: over every interleaving of n rounds of
// one run with n of another (all equally likely when rounds are
// exchangeable), the share in which the other run's median lies in
// [x(j), x(n+1−j)] equals rerunCoverage for odd n and is at least it for
// even n (where a median between the middle two counts as inside only
// when both are).
func TestRerunCoverageByEnumeration(t *testing.T) {
	for n := 2; n <= 8; n++ {
		for j := 1; j <= n/2; j++ {
			inside, total := 0, 0
			// order: bit i set = the i-th smallest of all 2n is the other run's.
			for mask := 0; mask < 1<<(2*n); mask++ {
				if popcount(mask) != n {
					continue
				}
				total++
				var olds, news []int
				for i := range 2 * n {
					if mask&(1<<i) != 0 {
						news = append(news, i)
					} else {
						olds = append(olds, i)
					}
				}
				lo, hi := olds[j-1], olds[n-j]
				m1, m2 := news[(n-1)/2], news[n/2] // the middle one(s)
				if m1 >= lo && m2 <= hi {
					inside++
				}
			}
			got, want := rerunCoverage(n, j), float64(inside)/float64(total)
			if n%2 == 1 && math.Abs(got-want) > 1e-12 || got > want+1e-12 {
				t.Errorf("n %d, j %d: rerunCoverage %.6f, enumeration %.6f", n, j, got, want)
			}
		}
	}
}

func popcount(x int) int {
	c := 0
	for ; x != 0; x &= x - 1 {
		c++
	}
	return c
}

// TestRerunRange: the range is the narrowest pair of order statistics
// reaching the level, [min, max] below it, and nothing for one round.
func TestRerunRange(t *testing.T) {
	xs := []float64{9, 3, 7, 1, 5, 11, 13, 2, 8, 4, 6}
	for _, tc := range []struct {
		xs     []float64
		level  float64
		lo, hi float64
	}{
		{xs, 0.95, 1, 13},    // 11 rounds: [min, max] holds a rerun's median 98.8 %, [x(2), x(10)] 93.6 %
		{xs, 0.90, 2, 11},    // 93.6 % is enough
		{xs[:3], 0.95, 3, 9}, // too few rounds: [min, max] with its own chance
	} {
		r := rerunRange(tc.xs, tc.level)
		if r.Lo != tc.lo || r.Hi != tc.hi || r.Level >= tc.level != (len(tc.xs) > 3) {
			t.Errorf("rerunRange(%v, %v) = %+v, want [%v, %v]", tc.xs, tc.level, r, tc.lo, tc.hi)
		}
	}
	if r := rerunRange([]float64{5}, 0.95); !math.IsNaN(r.Lo) || !math.IsNaN(r.Hi) {
		t.Errorf("one round: %+v, want no range", r)
	}
}
