package sweep

import (
	"cmp"
	"slices"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
	"github.com/lockbench/lockbench/workloads/lab"
)

// floorSteps is how many of the lowest steps make the noise floor.
const floorSteps = 2

// floorShare: a noise floor over this share of the SLO leaves little room
// for queueing; the knees table says so.
const floorShare = 0.5

// readCurve sets what the measured curve says beyond the knee: the safe
// rate, the knee interval widened by reruns, the noise floor, the USL of
// a closed loop, the plan for a target rate.
func (s *strategy) readCurve() {
	sw := &s.sw
	sw.FloorP99US = floorP99(s.cfg, sw.Steps)
	if s.cfg.By == ByWorkers { // throughput is measured whatever the SLO said
		if u, ok := fitUSL(uslPoints(sw.Steps)); ok {
			sw.USL = &u
		}
	}
	if sw.Knee < 0 {
		return
	}
	knee := s.cfg.By.Load(sw.Steps[sw.Knee])
	obs := passes(s.cfg, s.byLoad(0, len(s.cells)))
	sw.SafeRate = safeOf(knee, obs)
	var early, late []passObs
	if s.roundsFrom > 0 {
		early, late = passes(s.cfg, s.byLoad(0, s.roundsFrom)), passes(s.cfg, s.byLoad(s.roundsFrom, len(s.cells)))
	}
	s.widenByReruns(obs, early, late)
	if s.cfg.TargetRate > 0 {
		sw.Plan = plan(s.cfg.TargetRate, s.runs(knee))
	}
}

// byLoad is the runs of the measurements made from the from-th to
// before the to-th (cells' order: when they were made), by load.
func (s *strategy) byLoad(from, to int) map[float64][]schema.Run {
	out := make(map[float64][]schema.Run, len(s.samples))
	for load, ks := range s.samples {
		for _, k := range ks {
			if k >= from && k < to {
				out[load] = append(out[load], s.cells[k].Run)
			}
		}
	}
	return out
}

// safeRate is the highest load at or under knee at which every
// measurement (the search's and the probes') met the SLO, judged one by
// one; 0 when none did. It is never above the knee.
func safeRate(c Config, knee float64, runs map[float64][]schema.Run) float64 {
	return safeOf(knee, passes(c, runs))
}

// safeOf is safeRate of obs, measurements judged one by one.
func safeOf(knee float64, obs []passObs) float64 {
	safe := 0.0
	for _, o := range obs {
		if o.load <= knee && o.n > 0 && o.held == o.n {
			safe = o.load
		}
	}
	return safe
}

// passes are runs by load, each judged on its own, as passObs in rising
// load.
func passes(c Config, runs map[float64][]schema.Run) []passObs {
	out := make([]passObs, 0, len(runs))
	for load, rs := range runs {
		var cell lab.Config // what judge reads of it: the rate to keep up with
		if c.By == ByRate {
			cell.Workload.Rate = load
		}
		o := passObs{load: load, n: len(rs)}
		for _, r := range rs {
			if judge(c, cell, r).OK {
				o.held++
			}
		}
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b passObs) int { return cmp.Compare(a.load, b.load) })
	return out
}

// floorP99 is the p99 at the lowest steps: the median of the
// floorSteps lowest loads' p99s (0 with no step).
func floorP99(c Config, steps []schema.SweepStep) float64 {
	sorted := slices.Clone(steps)
	slices.SortFunc(sorted, func(a, b schema.SweepStep) int { return cmp.Compare(c.By.Load(a), c.By.Load(b)) })
	var p99s []float64
	for _, st := range sorted[:min(floorSteps, len(sorted))] {
		if st.P99US > 0 {
			p99s = append(p99s, st.P99US)
		}
	}
	if len(p99s) == 0 {
		return 0
	}
	return stats.Median(p99s)
}
