package gate

import (
	"math"
	"testing"
)

// TestSignedRankCriticalValues: the exact null distribution gives the
// published critical values of the Wilcoxon signed-rank test, two-sided
// at α = 0.05 and 0.01 (the largest T with P(W ≤ T) ≤ α/2; e.g.
// Wilcoxon, Katti & Wilcox 1970, as reprinted in most statistics
// texts' tables).
func TestSignedRankCriticalValues(t *testing.T) {
	for _, tt := range []struct {
		n        int
		t05, t01 int // −1: none
	}{
		{6, 0, -1}, {7, 2, -1}, {8, 3, 0}, {9, 5, 1}, {10, 8, 3}, {11, 10, 5}, {12, 13, 7},
		{13, 17, 9}, {14, 21, 12}, {15, 25, 15}, {20, 52, 37}, {25, 89, 68}, {30, 137, 109},
	} {
		nd := signedRankNull(tt.n)
		for _, c := range []struct {
			alpha float64
			want  int
		}{{0.05, tt.t05}, {0.01, tt.t01}} {
			got := -1
			for x := 0; nd.lower(float64(x)) <= c.alpha/2; x++ {
				got = x
			}
			if got != c.want {
				t.Errorf("n=%d α=%v: critical T %d, want %d", tt.n, c.alpha, got, c.want)
			}
		}
	}
}

// TestSignedRankSymmetric: the distribution sums to one and is symmetric
// about n(n+1)/4, and the normal approximation beyond 50 pairs agrees
// with the exact distribution at 50.
func TestSignedRankSymmetric(t *testing.T) {
	for _, n := range []int{1, 5, 17, 50} {
		d := wDist(n)
		var sum float64
		for x, p := range d {
			sum += p
			if math.Abs(p-d[len(d)-1-x]) > 1e-15 {
				t.Fatalf("n=%d: P(%d) %v ≠ P(%d) %v", n, x, p, len(d)-1-x, d[len(d)-1-x])
			}
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Errorf("n=%d: sums to %v", n, sum)
		}
	}
	exact := signedRankNull(50)
	approx := exact
	approx.cdf = nil
	for _, x := range []float64{400, 466, 500, 600} {
		if e, a := exact.lower(x), approx.lower(x); math.Abs(e-a) > 0.005 {
			t.Errorf("P(W ≤ %v): exact %v, normal %v", x, e, a)
		}
	}
}
