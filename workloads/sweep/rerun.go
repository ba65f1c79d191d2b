package sweep

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/optimize"
)

// Reruns on the measured curve. Near the capacity a load does not simply
// hold or fail: on a machine shared with its masters it meets the SLO in
// some measurements and not in others, and how often falls with the load
// over a band that can be wider than the search's grid. A rerun's knee
// lands wherever its own few measurements put it in that band. So every
// measurement of the sweep is judged on its own, a pass curve is fitted
// to them, and the search is run again on that curve many times: the
// middle of those knees is where a rerun's knee lands.

// passObs are the measurements of one load, each judged on its own: how
// many there were and how many met the SLO.
type passObs struct {
	load    float64
	n, held int
}

// passCurve is the chance that one measurement at a load meets the SLO:
// 1 / (1 + exp(slope·(ln load − ln mid))). mid is the load met half the
// time, slope how sharply the chance falls with the load.
type passCurve struct {
	mid, slope float64
}

// p is the chance that a measurement at load meets the SLO.
func (c passCurve) p(load float64) float64 {
	return 1 / (1 + math.Exp(c.slope*(math.Log(load)-math.Log(c.mid))))
}

// at is the load at which a measurement meets the SLO with chance p.
func (c passCurve) at(p float64) float64 {
	return c.mid * math.Exp(math.Log((1-p)/p)/c.slope)
}

// fitPassCurve fits a passCurve to obs: logistic regression on ln load
// with Firth's penalty (the Jeffreys prior), which keeps the fit finite
// when the measurements separate cleanly (every load below a point held,
// every one above failed) and takes the small-sample bias out of the
// slope; gonum's Nelder–Mead finds the optimum. False when no
// measurement met the SLO or none failed: there is no curve to place.
func fitPassCurve(obs []passObs) (passCurve, bool) {
	return fitPassCurveFrom(obs, passCurve{})
}

// fitPassCurveFrom is fitPassCurve started at start (a start of zero:
// between the highest load that held and the lowest that failed, at a
// moderate slope).
func fitPassCurveFrom(obs []passObs, start passCurve) (passCurve, bool) {
	okMax, badMin := 0.0, math.Inf(1)
	lx := make([]float64, len(obs))
	for i, o := range obs {
		if o.held > 0 {
			okMax = math.Max(okMax, o.load)
		}
		if o.held < o.n {
			badMin = math.Min(badMin, o.load)
		}
		lx[i] = math.Log(o.load)
	}
	if okMax == 0 || math.IsInf(badMin, 1) {
		return passCurve{}, false
	}
	curve := func(x []float64) passCurve { return passCurve{mid: math.Exp(x[0]), slope: math.Exp(x[1])} }
	loss := func(x []float64) float64 {
		slope := math.Exp(x[1])
		var nll, sw, swx, swxx float64
		for i, o := range obs {
			p := 1 / (1 + math.Exp(slope*(lx[i]-x[0])))
			p = math.Min(math.Max(p, 1e-12), 1-1e-12)
			nll -= float64(o.held)*math.Log(p) + float64(o.n-o.held)*math.Log(1-p)
			// The Fisher information of the logit's two coefficients.
			w := float64(o.n) * p * (1 - p)
			sw, swx, swxx = sw+w, swx+w*lx[i], swxx+w*lx[i]*lx[i]
		}
		det := math.Max(sw*swxx-swx*swx, 1e-300) * slope * slope
		return nll - 0.5*math.Log(det)
	}
	// 10: from 90 % to 10 % over ±20 % of the load.
	x0 := []float64{(math.Log(okMax) + math.Log(badMin)) / 2, math.Log(10)}
	if start.mid > 0 {
		x0 = []float64{math.Log(start.mid), math.Log(start.slope)}
	}
	settings := &optimize.Settings{Converger: &optimize.FunctionConverge{Absolute: 1e-6, Relative: 1e-6, Iterations: 10},
		MajorIterations: 1000}
	res, err := optimize.Minimize(optimize.Problem{Func: loss}, x0, settings, &optimize.NelderMead{})
	if err != nil && res == nil {
		return passCurve{}, false
	}
	return curve(res.X), true
}

// rerunCount is how many reruns are simulated, rerunCurves on how many
// curves drawn (each fitted anew: the costly part), and rerunShare the
// share of their knees the interval holds (the middle 95 %).
const (
	rerunCount  = 1000
	rerunCurves = 200
	rerunShare  = 0.95
)

// rerunKnees runs c's knee search reruns times, simulated, on the machine
// obs describe and returns their knees (0 for a rerun in which nothing
// held). The curve obs were measured on is not known, only its fit: so
// each rerun first draws its own curve (the measurements drawn anew at
// their loads from the fit, and fitted again: a parametric bootstrap),
// then runs the search on it, each measurement a draw of that curve and a
// load's verdict the majority of its draws, as the search's median of
// p99s is (reruns/rerunCurves reruns a drawn curve). A host that drifts
// (spread > 0: the σ of the half-way load's logarithm from one moment to
// another, driftOf) moves each rerun's curve by a draw of its own.
// Seeded: the same measurements give the same knees.
func rerunKnees(c Config, obs []passObs, fit passCurve, reruns int, spread float64) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	again := make([]passObs, len(obs))
	draw := func() passCurve {
		for j, o := range obs {
			again[j] = passObs{load: o.load, n: o.n}
			for range o.n {
				if rng.Float64() < fit.p(o.load) {
					again[j].held++
				}
			}
		}
		if curve, ok := fitPassCurveFrom(again, fit); ok {
			return curve
		}
		return fit
	}
	knees := make([]float64, reruns)
	var curve passCurve
	for i := range knees {
		if i%max(1, reruns/rerunCurves) == 0 {
			curve = draw()
		}
		host := curve
		if spread > 0 {
			host.mid *= math.Exp(spread * rng.NormFloat64())
		}
		draws := map[float64][]bool{}
		step := func(load float64, n int) (verdict, error) {
			d := draws[load]
			for len(d) < n {
				d = append(d, rng.Float64() < host.p(load))
			}
			draws[load] = d
			// Every failure is taken for latency alone: the half-step check
			// runs wherever the sweep's would, and fails where the curve has.
			return verdict{ok: 2*count(d) > len(d), latencyOnly: true}, nil
		}
		b, _ := searchKnee(context.Background(), c, step)
		knees[i] = b.good
	}
	return knees
}

// rerunInterval is where the middle share of knees lie: [lo, hi].
func rerunInterval(knees []float64, share float64) (lo, hi float64) {
	k := slices.Clone(knees)
	slices.Sort(k)
	tail := (1 - share) / 2
	at := func(q float64) float64 {
		return k[min(len(k)-1, max(0, int(math.Floor(q*float64(len(k))))))]
	}
	return at(tail), at(1 - tail)
}

// widenByReruns widens the sweep's knee interval (the rounds'; none
// when they were not measured to the end) to hold the middle rerunShare
// of the knees simulated reruns find on the pass curve fitted to obs,
// every measurement of the sweep judged on its own (in rising load), the
// curve moved by the host's drift between the search and the rounds
// (early and late: the same measurements, split by when they were made),
// and says so when it moves an end.
func (s *strategy) widenByReruns(obs, early, late []passObs) {
	if len(s.sw.KneeInterval) != 2 || !disagree(obs) {
		return // no interval, or every load below a point held and every one above failed: the rounds' interval stands
	}
	fit, ok := fitPassCurve(obs)
	if !ok {
		return
	}
	spread := 0.0
	if s.sw.Drift = driftOf(early, late, fit.slope); s.sw.Drift != nil {
		spread = s.sw.Drift.Spread
	}
	lo, hi := rerunInterval(rerunKnees(s.cfg, obs, fit, rerunCount, spread), rerunShare)
	if spread > 0 {
		d := s.sw.Drift
		s.sw.IntervalWhy = append(s.sw.IntervalWhy, fmt.Sprintf(
			"the search's measurements meet the SLO half the time at %s, the rounds' after it at %s: the host moved more than "+
				"their own sampling explains (the half-way load moves by ±%.0f %% from one moment to another), so each rerun meets a host moved as far",
			loadText(s.cfg.By, math.Round(d.SearchMid)), loadText(s.cfg.By, math.Round(d.RoundsMid)), 100*(math.Exp(spread)-1)))
	}
	iv := s.sw.KneeInterval
	if lo > 0 && lo < iv[0] || hi > iv[1] {
		s.sw.IntervalWhy = append(s.sw.IntervalWhy, fmt.Sprintf(
			"every measurement judged on its own meets the SLO half the time at %s, falling from 90 %% to 10 %% over %s–%s: "+
				"%.0f %% of %d reruns of the search on %d curves drawn from that fit found their knee in %s",
			loadText(s.cfg.By, math.Round(fit.mid)), loadText(s.cfg.By, math.Round(fit.at(0.9))), loadText(s.cfg.By, math.Round(fit.at(0.1))),
			100*rerunShare, rerunCount, rerunCurves, intervalText(s.cfg.By, []float64{lo, hi})))
		if lo > 0 {
			iv[0] = math.Min(iv[0], lo)
		}
		iv[1] = math.Max(iv[1], hi)
	}
}

// disagree: some measurement failed at a load at or under one at which
// another held (obs in rising load).
func disagree(obs []passObs) bool {
	failed := false
	for _, o := range obs {
		if o.held > 0 && (failed || o.held < o.n) {
			return true
		}
		failed = failed || o.held < o.n
	}
	return false
}
