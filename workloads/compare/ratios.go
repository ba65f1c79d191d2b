package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// setRatios sorts runs by throughput (in place, stable) and gives each its
// ratio to the sequential run of its group (vsSequential: same backend,
// client, workload, masters, workers and added round trip) and, where
// ceilings has its masters count, the ceiling and its fraction of it, and
// where floors has its client on those masters at its workers, the floor
// and its fraction of that.
// Runs repeated in rounds (stats.Repeats) count by their cell's median:
// the sequential baseline is its median, the runs sort by their cell's
// median with its rounds together and in order, so each round's ratio is
// its own cycles/s over the baseline's median and the median of a cell's
// ratios is the ratio of the medians.
func setRatios(runs []schema.Run, ceilings map[int]Ceiling, floors map[floorKey]Floor) {
	median, first := map[string]float64{}, map[string]int{}
	for i, row := range stats.Repeats(runs) {
		median[row[0].Name], first[row[0].Name] = stats.MedianRate(row), i
	}
	base := map[string]float64{}
	for _, r := range runs {
		if r.Mux == "sequential" {
			base[baselineKey(r)] = median[r.Name]
		}
	}
	for i := range runs {
		r := &runs[i]
		r.VsSequential, r.CeilingCyclesPerS, r.OfCeiling, r.CeilingCost = nil, nil, nil, nil
		r.FloorCyclesPerS, r.OfFloor, r.FloorCost = nil, nil, nil
		if b := base[baselineKey(*r)]; b > 0 {
			v := r.Throughput.CyclesPerS / b
			r.VsSequential = &v
		}
		if c := ceilings[r.Masters]; c.CyclesPerS > 0 {
			cps, of := c.CyclesPerS, r.Throughput.CyclesPerS/c.CyclesPerS
			r.CeilingCyclesPerS, r.OfCeiling, r.CeilingCost = &cps, &of, c.Cost
		}
		if f := floors[floorKey{r.Masters, r.Client}]; f.CyclesPerS > 0 && f.Workers == r.Workers {
			fps, of := f.CyclesPerS, r.Throughput.CyclesPerS/f.CyclesPerS
			r.FloorCyclesPerS, r.OfFloor, r.FloorCost = &fps, &of, f.Cost
		}
	}
	if !repeated(runs) { // one run per cell: by its own throughput, as always
		sort.SliceStable(runs, func(i, j int) bool { return runs[i].Throughput.CyclesPerS > runs[j].Throughput.CyclesPerS })
		return
	}
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		switch {
		case median[a.Name] != median[b.Name]:
			return median[a.Name] > median[b.Name]
		case a.Name != b.Name:
			return first[a.Name] < first[b.Name]
		}
		return a.Repeat < b.Repeat
	})
}

// repeated: some run is one round of several.
func repeated(runs []schema.Run) bool {
	for _, r := range runs {
		if r.Repeat > 0 {
			return true
		}
	}
	return false
}

// baselineKey groups a run with the sequential run it is compared to.
func baselineKey(r schema.Run) string {
	return strings.Join([]string{r.Backend, r.Client, r.Workload, fmt.Sprint(r.Masters, r.Workers, r.AddedRTTUS)}, "/")
}
