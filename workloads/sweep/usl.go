package sweep

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/lockbench/lockbench/results/schema"
)

// The Universal Scalability Law (Gunther): a closed loop of N workers
// achieves X(N) = λN / (1 + σ(N−1) + κN(N−1)) cycles/s, σ the share of
// a cycle that serialises (contention) and κ the cost of keeping workers
// coherent (crosstalk), which makes X fall past √((1−σ)/κ) workers. The
// fit is how a capacity planner extrapolates a closed-loop sweep.

// uslPoint is throughput x (cycles/s) at n workers.
type uslPoint struct{ n, x float64 }

// uslPoints are a closed-loop sweep's steps as points, one per load with
// cycles measured.
func uslPoints(steps []schema.SweepStep) []uslPoint {
	var out []uslPoint
	for _, st := range steps {
		if st.Workers > 0 && st.CyclesPerS > 0 {
			out = append(out, uslPoint{float64(st.Workers), st.CyclesPerS})
		}
	}
	slices.SortFunc(out, func(a, b uslPoint) int { return cmp.Compare(a.n, b.n) })
	return out
}

// minUSLPoints: three parameters want more than three loads to be a fit
// rather than an interpolation; with three the R² is 1 by construction
// more often than not.
const minUSLPoints = 4

// fitUSL fits the USL to pts by least squares on X, with σ, κ ≥ 0: a
// linear fit of N/X = (1 + σ(N−1) + κN(N−1))/λ starts it, gonum's
// Nelder–Mead refines (σ, κ), λ solved exactly for each. False with
// fewer than minUSLPoints distinct loads or no fit.
func fitUSL(pts []uslPoint) (schema.USL, bool) {
	if len(pts) < minUSLPoints {
		return schema.USL{}, false
	}
	nMax := pts[len(pts)-1].n
	// κ scaled by nMax² so both parameters are of one magnitude for the
	// simplex.
	sse := func(p []float64) (float64, float64) {
		sigma, kappa := math.Abs(p[0]), math.Abs(p[1])/(nMax*nMax)
		var xg, gg float64
		g := make([]float64, len(pts))
		for i, pt := range pts {
			g[i] = pt.n / (1 + sigma*(pt.n-1) + kappa*pt.n*(pt.n-1))
			xg, gg = xg+pt.x*g[i], gg+g[i]*g[i]
		}
		lambda := xg / gg
		var s float64
		for i, pt := range pts {
			d := pt.x - lambda*g[i]
			s += d * d
		}
		return s, lambda
	}
	var xx float64
	for _, pt := range pts {
		xx += pt.x * pt.x
	}
	start := linearUSL(pts)
	x0 := []float64{math.Max(start.Sigma, 0), math.Max(start.Kappa, 0) * nMax * nMax}
	nm := &optimize.NelderMead{SimplexSize: math.Max(0.01, 0.1*math.Max(x0[0], x0[1]))}
	prob := optimize.Problem{Func: func(p []float64) float64 { s, _ := sse(p); return s / xx }}
	settings := &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-14, Relative: 1e-12, Iterations: 400},
		MajorIterations: 20000}
	res, err := optimize.Minimize(prob, x0, settings, nm)
	if err != nil && res == nil {
		return schema.USL{}, false
	}
	s, lambda := sse(res.X)
	u := schema.USL{Lambda: lambda, Sigma: math.Abs(res.X[0]), Kappa: math.Abs(res.X[1]) / (nMax * nMax)}
	if !(lambda > 0) {
		return schema.USL{}, false
	}
	if u.Kappa > 0 && u.Sigma < 1 {
		u.PeakWorkers = math.Sqrt((1 - u.Sigma) / u.Kappa)
	}
	var mean, tot float64
	for _, pt := range pts {
		mean += pt.x / float64(len(pts))
	}
	for _, pt := range pts {
		tot += (pt.x - mean) * (pt.x - mean)
	}
	if tot > 0 {
		u.R2 = 1 - s/tot
	}
	return u, true
}

// linearUSL is the USL from a linear least-squares fit of N/X against 1,
// N−1 and N(N−1): exact on noiseless data, a start for fitUSL otherwise
// (its residuals weigh the loads differently).
func linearUSL(pts []uslPoint) schema.USL {
	a := mat.NewDense(len(pts), 3, nil)
	y := mat.NewVecDense(len(pts), nil)
	for i, pt := range pts {
		a.Set(i, 0, 1)
		a.Set(i, 1, pt.n-1)
		a.Set(i, 2, pt.n*(pt.n-1))
		y.SetVec(i, pt.n/pt.x)
	}
	var c mat.VecDense
	if err := c.SolveVec(a, y); err != nil || !(c.AtVec(0) > 0) {
		return schema.USL{Sigma: 0.01, Kappa: 1e-4}
	}
	inv := c.AtVec(0)
	return schema.USL{Lambda: 1 / inv, Sigma: c.AtVec(1) / inv, Kappa: c.AtVec(2) / inv}
}
