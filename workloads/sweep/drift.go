package sweep

import (
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/lockbench/lockbench/results/schema"
)

// The host's drift. The pass curve is fitted as if every measurement of
// the sweep met the same host; on a shared or virtual machine the host's
// tail latency moves over minutes, so a rerun meets a host of its own and
// its knee moves with it, further than the curve's draws move it. A
// sweep sees some of that movement itself: its rounds measure the loads
// around the knee again about a minute after the search did. Where the
// two put the curve's half-way load further apart than their own
// sampling explains, the host moved in that minute, and each simulated
// rerun's curve is moved by a draw of that size.

// driftOf measures the host's drift between the search's measurements
// (early) and the rounds' (late) on a curve of the pooled fit's slope:
// each phase's half-way load fitted on its own, and the spread of the
// half-way load from one moment to another (σ of its logarithm) that
// makes their difference more than their standard errors explain:
// σ² = max(0, (d² − se₁² − se₂²) / 2), d the difference of the logs
// (each moment's own shift a draw of σ: the moment-of-variance estimate
// of meta-analysis, DerSimonian–Laird's). Two moments a minute apart see
// less of a drift over minutes than two sweeps further apart do: the
// spread is a lower bound of a later rerun's. Nil when a phase has no
// measurement.
func driftOf(early, late []passObs, slope float64) *schema.SweepDrift {
	if len(early) == 0 || len(late) == 0 || slope <= 0 {
		return nil
	}
	m1, se1 := fitMid(early, slope)
	m2, se2 := fitMid(late, slope)
	d := math.Log(m2 / m1)
	return &schema.SweepDrift{SearchMid: m1, RoundsMid: m2, Spread: math.Sqrt(math.Max(0, (d*d-se1*se1-se2*se2)/2))}
}

// fitMid fits the half-way load of a pass curve of the given slope to
// obs, with the Jeffreys prior (Firth's penalty: finite when every
// measurement held, or none did), and the standard error of its
// logarithm from the Fisher information at the fit.
func fitMid(obs []passObs, slope float64) (mid, se float64) {
	lx := make([]float64, len(obs))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, o := range obs {
		lx[i] = math.Log(o.load)
		lo, hi = math.Min(lo, lx[i]), math.Max(hi, lx[i])
	}
	info := func(x float64) (nll, fisher float64) {
		for i, o := range obs {
			p := 1 / (1 + math.Exp(slope*(lx[i]-x)))
			p = math.Min(math.Max(p, 1e-12), 1-1e-12)
			nll -= float64(o.held)*math.Log(p) + float64(o.n-o.held)*math.Log(1-p)
			fisher += float64(o.n) * p * (1 - p) * slope * slope
		}
		return nll, fisher
	}
	loss := func(x []float64) float64 {
		nll, fisher := info(x[0])
		return nll - 0.5*math.Log(math.Max(fisher, 1e-300))
	}
	x0 := (lo + hi) / 2
	settings := &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-9, Relative: 1e-9, Iterations: 20},
		MajorIterations: 1000}
	if res, err := optimize.Minimize(optimize.Problem{Func: loss}, []float64{x0}, settings, &optimize.NelderMead{}); res != nil {
		x0 = res.X[0]
	} else if err != nil {
		return math.Exp(x0), math.Inf(1)
	}
	_, fisher := info(x0)
	return math.Exp(x0), 1 / math.Sqrt(math.Max(fisher, 1e-300))
}
