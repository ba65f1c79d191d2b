package sweep

import (
	"math"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// uslAt is u's throughput at n workers.
func uslAt(u schema.USL, n float64) float64 {
	return u.Lambda * n / (1 + u.Sigma*(n-1) + u.Kappa*n*(n-1))
}

// TestFitUSLRecovers: throughput made by the USL at a doubling sweep's
// worker counts (as --by workers --factor 2 measures them, and with a
// deterministic ±1 % wobble) is fitted back to its σ and κ within 5 %,
// with the peak concurrency and an R² near 1.
func TestFitUSLRecovers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		u      schema.USL
		ns     []float64
		wobble float64 // ± share of X, alternating
	}{
		{"contention and coherency", schema.USL{Lambda: 1000, Sigma: 0.05, Kappa: 0.001}, pow2(1, 256), 0},
		{"little coherency cost", schema.USL{Lambda: 20000, Sigma: 0.2, Kappa: 0.00005}, pow2(1, 512), 0},
		{"strong coherency cost", schema.USL{Lambda: 500, Sigma: 0.01, Kappa: 0.02}, pow2(1, 64), 0},
		{"a 1.5 factor", schema.USL{Lambda: 3000, Sigma: 0.1, Kappa: 0.0005}, []float64{1, 2, 3, 5, 8, 12, 18, 27, 41, 62, 93, 140}, 0},
		{"with a 1 % wobble", schema.USL{Lambda: 1000, Sigma: 0.05, Kappa: 0.001}, pow2(1, 256), 0.01},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pts []uslPoint
			for i, n := range tc.ns {
				x := uslAt(tc.u, n) * (1 + tc.wobble*float64(1-2*(i%2)))
				pts = append(pts, uslPoint{n, x})
			}
			got, ok := fitUSL(pts)
			if !ok {
				t.Fatal("no fit")
			}
			tol := 0.05
			if rel(got.Sigma, tc.u.Sigma) > tol || rel(got.Kappa, tc.u.Kappa) > tol || rel(got.Lambda, tc.u.Lambda) > tol {
				t.Fatalf("fit %+v, want σ, κ, λ of %+v within 5 %%", got, tc.u)
			}
			peak := math.Sqrt((1 - tc.u.Sigma) / tc.u.Kappa)
			if rel(got.PeakWorkers, peak) > tol || got.R2 < 0.99 || got.R2 > 1 {
				t.Errorf("peak %.1f (want %.1f), R² %v", got.PeakWorkers, peak, got.R2)
			}
		})
	}
}

// TestFitUSLLinear: throughput that scales without loss fits σ = κ = 0
// and no peak; too few loads are no fit.
func TestFitUSLLinear(t *testing.T) {
	var pts []uslPoint
	for _, n := range pow2(1, 64) {
		pts = append(pts, uslPoint{n, 700 * n})
	}
	got, ok := fitUSL(pts)
	if !ok || got.Sigma > 1e-4 || got.Kappa > 1e-6 || rel(got.Lambda, 700) > 0.01 || got.PeakWorkers != 0 && got.PeakWorkers < 1000 {
		t.Fatalf("linear: %+v, %v", got, ok)
	}
	if _, ok := fitUSL(pts[:minUSLPoints-1]); ok {
		t.Errorf("%d loads fitted", minUSLPoints-1)
	}
}

func pow2(lo, hi float64) []float64 {
	var out []float64
	for n := lo; n <= hi; n *= 2 {
		out = append(out, n)
	}
	return out
}

// rel is |got − want| / want.
func rel(got, want float64) float64 { return math.Abs(got-want) / want }
