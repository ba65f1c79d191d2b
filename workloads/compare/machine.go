package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// Machine is what the memory probe saw over a compare's rounds
// (schema.Run.MemoryProbeNS) and how the rounds' speed moved with it. On
// a shared host the caches and memory bus are other tenants' too: when
// they are busy every cell of a round runs slower, by as much as a third
// here, while its own code is the same. Ranks and ratios are paired by
// round and cancel that; absolute cycles/s do not, and a rerun minutes
// later can meet another state. This says which state this run met and
// how closely its rounds followed it.
type Machine struct {
	// ProbeNS is the cells' probes: lowest, median and highest, in
	// nanoseconds of CPU per dependent load.
	ProbeNS Spread `json:"memory_probe_ns"`
	// Rounds is how many rounds had both a probe and a speed.
	Rounds int `json:"rounds"`
	// Speed is the rounds' speeds, lowest, median and highest: a round's
	// speed is the geometric mean over its cells of each cell's cycles/s
	// in that round over the cell's median (1: a typical round).
	Speed Spread `json:"round_speed"`
	// Correlation of the rounds' log speed with their log probe, and the
	// slope of that line (the speed's elasticity: −0.2 means twice the
	// probe cost 13 % of the speed); 0 with fewer than minRounds rounds.
	Correlation float64 `json:"correlation"`
	Elasticity  float64 `json:"elasticity"`
}

// Spread is the lowest, median and highest of some values.
type Spread struct {
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	Max    float64 `json:"max"`
}

func spreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	return Spread{Min: slices.Min(xs), Median: stats.Median(xs), Max: slices.Max(xs)}
}

// machineOf is the Machine of runs measured in rounds; nil when no run
// has a probe or the runs were not repeated.
func machineOf(runs []schema.Run) *Machine {
	type cellRound struct {
		rate, probe float64
	}
	byCell := map[string]map[int]cellRound{}
	var probes []float64
	for _, r := range runs {
		if r.Repeat == 0 || r.Interrupted || r.MemoryProbeNS <= 0 || r.Throughput.CyclesPerS <= 0 {
			continue
		}
		if byCell[r.Name] == nil {
			byCell[r.Name] = map[int]cellRound{}
		}
		byCell[r.Name][r.Repeat] = cellRound{r.Throughput.CyclesPerS, r.MemoryProbeNS}
		probes = append(probes, r.MemoryProbeNS)
	}
	if len(probes) == 0 {
		return nil
	}
	// A round's speed: the geometric mean of its cells' shares of their
	// own medians; its probe: the median of its cells' probes.
	logShares, roundProbes := map[int][]float64{}, map[int][]float64{}
	for _, rounds := range byCell {
		rates := make([]float64, 0, len(rounds))
		for _, cr := range rounds {
			rates = append(rates, cr.rate)
		}
		med := stats.Median(rates)
		for round, cr := range rounds {
			logShares[round] = append(logShares[round], math.Log(cr.rate/med))
			roundProbes[round] = append(roundProbes[round], cr.probe)
		}
	}
	m := &Machine{ProbeNS: spreadOf(probes)}
	var speeds, xs, ys []float64
	for round, ls := range logShares {
		mean := 0.0
		for _, l := range ls {
			mean += l / float64(len(ls))
		}
		speeds = append(speeds, math.Exp(mean))
		xs = append(xs, math.Log(stats.Median(roundProbes[round])))
		ys = append(ys, mean)
	}
	m.Rounds, m.Speed = len(speeds), spreadOf(speeds)
	if m.Rounds >= minRounds {
		m.Correlation, m.Elasticity = fit(xs, ys)
	}
	return m
}

// fit is the correlation of xs and ys and the least-squares slope of ys
// on xs; zeros when either does not vary.
func fit(xs, ys []float64) (corr, slope float64) {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i] / n
		my += ys[i] / n
	}
	var sxy, sxx, syy float64
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, 0
	}
	return sxy / math.Sqrt(sxx*syy), sxy / sxx
}

// followsProbe is the correlation from which the text says the rounds'
// speed moved with the machine: |r| ≥ 0.5, a quarter of the rounds'
// spread explained by the probe.
const followsProbe = 0.5

// String is the Machine as a sentence for under the answers.
func (m Machine) String() string {
	s := fmt.Sprintf("memory probe %.0f–%.0f ns/load (median %.0f); rounds ran %.2f–%.2f× a typical round",
		m.ProbeNS.Min, m.ProbeNS.Max, m.ProbeNS.Median, m.Speed.Min, m.Speed.Max)
	switch {
	case m.Rounds < minRounds:
		return s
	case m.Correlation <= -followsProbe:
		return s + fmt.Sprintf(", slower as it rose (r = %.2f): the host's other tenants slow every cell alike. "+
			"Ranks and ratios are paired by round; cycles/s and their rerun ranges hold while the host stays so", m.Correlation)
	default:
		return s + fmt.Sprintf(", not following it (r = %.2f)", m.Correlation)
	}
}
