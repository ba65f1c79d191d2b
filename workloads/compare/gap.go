package compare

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// Gap is one client's way from the masters' ceiling to its best cell on
// one masters count: the ceiling (redis-benchmark), the floor (the bare
// client library, Floor) and the best cell of that client at the floor's
// workers, each the median of its rounds, and the two ratios measured
// round by round (each round's floor over that round's ceiling, its cell
// over its floor), so drift of the host between rounds cancels.
type Gap struct {
	Client  string `json:"client"`
	Masters int    `json:"masters"`
	Workers int    `json:"workers"`
	// Cell is the best cell's run name.
	Cell string `json:"cell"`
	// Ceiling, Floor and CellCyclesPerS are the medians of the rounds.
	Ceiling        float64 `json:"ceiling_cycles_per_s"`
	Floor          float64 `json:"floor_cycles_per_s"`
	CellCyclesPerS float64 `json:"cell_cycles_per_s"`
	// FloorOfCeiling is the library's share of the gap, CellOfFloor
	// lockbench's: medians of the per-round ratios with their intervals.
	FloorOfCeiling stats.MedianCI `json:"floor_of_ceiling"`
	CellOfFloor    stats.MedianCI `json:"cell_of_floor"`
	// FloorCost and CellCost are what a cycle cost the client there
	// (median rounds').
	FloorCost *schema.Cost `json:"floor_cost,omitempty"`
	CellCost  *schema.Cost `json:"cell_cost,omitempty"`
	// FloorErrors counts the floor's failed commands over its rounds.
	FloorErrors int64 `json:"floor_errors,omitempty"`
}

// floorKey names the floors of one client on one masters count.
type floorKey struct {
	masters int
	client  string
}

// gaps are the Gap of every client with a floor, by masters count then
// client. ceilings and floors are each round's, in round order, medians
// the floors' medianFloor; runs are the cells (Repeat 0 when there was one
// round).
func gaps(runs []schema.Run, ceilings map[int][]Ceiling, floors map[floorKey][]Floor, medians map[floorKey]Floor) []Gap {
	var out []Gap
	for k, fs := range floors {
		cs := ceilings[k.masters]
		if len(fs) == 0 || len(cs) == 0 {
			continue
		}
		g := Gap{Client: k.client, Masters: k.masters, Workers: fs[0].Workers}
		var best []schema.Run
		for _, row := range stats.Repeats(runs) {
			r := row[0]
			if r.Client != k.client || r.Masters != k.masters || r.Workers != g.Workers || r.Interrupted {
				continue
			}
			if best == nil || stats.MedianRate(row) > stats.MedianRate(best) {
				best = row
			}
		}
		if best == nil {
			continue
		}
		var ceilRates, ofCeil, ofFloor []float64
		for round, f := range fs {
			g.FloorErrors += f.Errors
			if round >= len(cs) || cs[round].CyclesPerS <= 0 {
				continue
			}
			ceilRates = append(ceilRates, cs[round].CyclesPerS)
			ofCeil = append(ofCeil, f.CyclesPerS/cs[round].CyclesPerS)
			if cell, ok := inRound(best, round); ok && f.CyclesPerS > 0 {
				ofFloor = append(ofFloor, cell.Throughput.CyclesPerS/f.CyclesPerS)
			}
		}
		m := stats.MedianRun(best)
		g.Cell, g.CellCyclesPerS, g.CellCost = m.Name, m.Throughput.CyclesPerS, m.Cost
		g.Ceiling, g.Floor, g.FloorCost = stats.Median(ceilRates), medians[k].CyclesPerS, medians[k].Cost
		g.FloorOfCeiling = stats.MedianInterval(ofCeil, stats.Confidence)
		g.CellOfFloor = stats.MedianInterval(ofFloor, stats.Confidence)
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b Gap) int { return cmp.Or(cmp.Compare(a.Masters, b.Masters), cmp.Compare(a.Client, b.Client)) })
	return out
}

// inRound is the run of row measured in round (from 0); a single run
// (no rounds) is round 0's.
func inRound(row []schema.Run, round int) (schema.Run, bool) {
	for _, r := range row {
		if r.Repeat == round+1 || (r.Repeat == 0 && round == 0) {
			return r, true
		}
	}
	return schema.Run{}, false
}

// medianFloor is the floor of the median round with the median of the
// rounds' rates.
func medianFloor(rounds []Floor) Floor {
	rates := make([]float64, len(rounds))
	for i, r := range rounds {
		rates[i] = r.CyclesPerS
	}
	sorted := slices.Clone(rounds)
	slices.SortStableFunc(sorted, func(a, b Floor) int { return cmp.Compare(a.CyclesPerS, b.CyclesPerS) })
	f := sorted[(len(sorted)-1)/2]
	f.CyclesPerS = stats.Median(rates)
	return f
}

// writeGaps prints the gaps: per client, ceiling → floor → best cell, the
// ratios with their intervals over rounds, and the client CPU a cycle
// costs at each step.
func writeGaps(w io.Writer, gs []Gap) {
	if len(gs) == 0 {
		return
	}
	fmt.Fprintln(w, "\nceiling → floor → best cell (cycles/s, medians of rounds; ratios per round, median [interval]):")
	fmt.Fprintf(w, "  %-8s %8s %8s %8s  %-20s %-20s %s\n", "client", "ceiling", "floor", "cell", "floor/ceiling", "cell/floor", "client µs/cycle")
	for _, g := range gs {
		fmt.Fprintf(w, "  %-8s %8.0f %8.0f %8.0f  %-20s %-20s %s\n", g.Client, g.Ceiling, g.Floor, g.CellCyclesPerS,
			ratioCI(g.FloorOfCeiling), ratioCI(g.CellOfFloor), cpuStep(g.FloorCost, g.CellCost))
	}
	for _, g := range gs {
		fmt.Fprintf(w, "  %s: best cell %s (%d masters, %d workers)\n", g.Client, g.Cell, g.Masters, g.Workers)
		if g.FloorErrors > 0 {
			fmt.Fprintf(w, "  %s: the floor had %d failed commands: it is only as good as its masters\n", g.Client, g.FloorErrors)
		}
	}
}

// ratioCI is a ratio's median and interval, with the interval's coverage
// when it falls short of 95 % (few rounds).
func ratioCI(ci stats.MedianCI) string {
	switch {
	case ci.N == 0:
		return "-"
	case ci.N == 1:
		return fmt.Sprintf("%.2f (1 round)", ci.Median)
	}
	s := fmt.Sprintf("%.2f [%.2f–%.2f]", ci.Median, ci.Lo, ci.Hi)
	if !ci.Enough(stats.Confidence) {
		s += fmt.Sprintf(" %.0f%%", 100*ci.Level)
	}
	return s
}

// cpuStep is the client CPU per cycle at the floor and at the cell
// ("floor → cell").
func cpuStep(floor, cell *schema.Cost) string {
	f, c := "-", "-"
	if floor != nil {
		f = fmt.Sprintf("%.1f", floor.ClientCPUUSPerCycle)
	}
	if cell != nil {
		c = fmt.Sprintf("%.1f", cell.ClientCPUUSPerCycle)
	}
	return f + " → " + c
}
