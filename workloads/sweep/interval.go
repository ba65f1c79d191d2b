package sweep

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/lockbench/lockbench/results/schema"
)

// The knee's interval: where a rerun's knee would land. The bisection's
// bracket says where this run's measurements put the capacity, not how
// far another run's would move it; so the steps around the knee are
// measured again in interleaved rounds (round-robin: the host's noise of
// one moment falls on every probe, not on one), each round giving the
// knee it would have found on its own.

// probeLoads are the loads the interval measures: the highest step under
// the knee (or the load below it), the knee and the first bad load (none
// when no step failed), in rising order.
func probeLoads(c Config, steps []schema.SweepStep, knee, bad float64) []float64 {
	below := 0.0
	for _, st := range steps {
		if l := c.By.Load(st); l < knee && l > below {
			below = l
		}
	}
	if below == 0 {
		below = c.down(knee)
	}
	var out []float64
	for _, l := range []float64{below, knee, bad} {
		if l > 0 {
			out = append(out, l)
		}
	}
	return out
}

// probeRounds measures each of loads once per round for cfg's rounds,
// each round starting one probe further on so no load always goes
// first, and sets the sweep's probes and its interval. Cut short by ctx,
// the sweep gets no interval: incomplete rounds do not say where a
// rerun lands.
func (s *strategy) probeRounds(ctx context.Context, loads []float64) error {
	probes := make([]schema.SweepProbe, len(loads))
	for i, l := range loads {
		probes[i].Load = l
	}
	rounds := s.cfg.rounds()
	s.roundsFrom = len(s.cells)
	for r := range rounds {
		for i := range loads {
			p := &probes[(i+r)%len(loads)]
			c, err := s.measure(ctx, p.Load, fmt.Sprintf(" (probe, round %d of %d)", r+1, rounds))
			if err != nil {
				return err
			}
			if c.Run.Interrupted || ctx.Err() != nil {
				return nil
			}
			st := judge(s.cfg, s.at(p.Load), c.Run)
			p.OK, p.P99US = append(p.OK, st.OK), append(p.P99US, st.P99US)
		}
	}
	s.sw.Probes = probes
	knee := s.cfg.By.Load(s.sw.Steps[s.sw.Knee])
	lo, hi, why := kneeInterval(s.cfg, knee, probes)
	s.sw.KneeInterval, s.sw.IntervalWhy = []float64{lo, hi}, why
	return nil
}

// kneeInterval is where a rerun's knee would land, from probes (rising
// loads, each with one verdict per round) around the search's knee:
//
//   - each round's knee is the highest probe that met the SLO in it (the
//     load under the lowest probe when none did);
//   - the interval runs from the lowest round's knee up to the lowest
//     probe above every round's knee (which failed in every round: a
//     rerun's knee lies under it); when the top probe met the SLO in some
//     round, beyond it by the probes' last gap;
//   - a probe whose rounds disagree widens it to the probes either side
//     of it (a rerun's knee may fall on either side);
//   - it always holds the search's knee.
//
// With every round agreeing it is [knee, bad]; why names each probe that
// disagreed, and says what bounds the interval. A round judges one
// measurement of each probe where a rerun's search judges medians, so
// the interval errs wide rather than narrow.
func kneeInterval(c Config, knee float64, probes []schema.SweepProbe) (lo, hi float64, why []string) {
	probes = slices.Clone(probes)
	slices.SortFunc(probes, func(a, b schema.SweepProbe) int { return cmp.Compare(a.Load, b.Load) })
	rounds := len(probes[0].OK)
	floor := c.down(probes[0].Load)
	if floor == 0 {
		floor = math.Max(1, math.Round(probes[0].Load/c.Factor))
	}
	lo, top := math.Inf(1), 0.0
	for r := range rounds {
		k := 0.0
		for _, p := range probes {
			if r < len(p.OK) && p.OK[r] {
				k = p.Load
			}
		}
		if k == 0 {
			k = floor
			why = append(why, fmt.Sprintf("round %d: no probe met the SLO, down to %s", r+1, loadText(c.By, probes[0].Load)))
		}
		lo, top = math.Min(lo, k), math.Max(top, k)
	}
	hi = 0
	for _, p := range probes {
		if p.Load > top {
			hi = p.Load
			why = append(why, fmt.Sprintf("up to %s, which failed in every round", loadText(c.By, hi)))
			break
		}
	}
	if hi == 0 {
		hi = top + gapAt(probes, len(probes)-1)
		why = append(why, fmt.Sprintf("%s, the highest probe, met the SLO: the capacity may lie above it (interval raised by the probes' gap)",
			loadText(c.By, top)))
	}
	// A probe whose rounds disagree: a rerun's knee may fall either side
	// of it, so the interval reaches its neighbours both ways.
	for i, p := range probes {
		held := count(p.OK)
		if held == 0 || held == len(p.OK) {
			continue
		}
		why = append(why, fmt.Sprintf("%s met the SLO in %d of %d rounds: a rerun's knee may fall either side of it",
			loadText(c.By, p.Load), held, len(p.OK)))
		below, above := floor, p.Load+gapAt(probes, i)
		if i > 0 {
			below = probes[i-1].Load
		}
		if i+1 < len(probes) {
			above = probes[i+1].Load
		}
		lo, hi = math.Min(lo, below), math.Max(hi, above)
	}
	if knee < lo || knee > hi {
		why = append(why, fmt.Sprintf("the search's knee %s lies outside the rounds' knees: the interval is widened to hold it", loadText(c.By, knee)))
		lo, hi = math.Min(lo, knee), math.Max(hi, knee)
	}
	return lo, hi, why
}

// gapAt is the distance from probe i to the probe below it, the
// interval's step beyond the top probe (i itself with a single probe).
func gapAt(probes []schema.SweepProbe, i int) float64 {
	if i > 0 {
		return probes[i].Load - probes[i-1].Load
	}
	return probes[i].Load
}

// count is how many of ok are true.
func count(ok []bool) int {
	n := 0
	for _, o := range ok {
		if o {
			n++
		}
	}
	return n
}
