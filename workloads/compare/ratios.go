package compare

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// Ratios sorts runs by throughput (in place, stable) and gives each its
// ratio to the sequential run of its group (VsSequential: same backend,
// client, workload, masters, workers and added round trip) and, where
// ceilings has its masters count, the ceiling and its fraction of it.
func Ratios(runs []results.Run, ceilings map[int]Ceiling) {
	base := map[string]float64{}
	for _, r := range runs {
		if r.Mux == "sequential" {
			base[baselineKey(r)] = r.Throughput.CyclesPerS
		}
	}
	for i := range runs {
		r := &runs[i]
		r.VsSequential, r.CeilingCyclesPerS, r.OfCeiling, r.CeilingCost = nil, nil, nil, nil
		if b := base[baselineKey(*r)]; b > 0 {
			v := r.Throughput.CyclesPerS / b
			r.VsSequential = &v
		}
		if c := ceilings[r.Masters]; c.CyclesPerS > 0 {
			cps, of := c.CyclesPerS, r.Throughput.CyclesPerS/c.CyclesPerS
			r.CeilingCyclesPerS, r.OfCeiling, r.CeilingCost = &cps, &of, c.Cost
		}
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Throughput.CyclesPerS > runs[j].Throughput.CyclesPerS })
}

// baselineKey groups a run with the sequential run it is compared to.
func baselineKey(r results.Run) string {
	return strings.Join([]string{r.Backend, r.Client, r.Workload, fmt.Sprint(r.Masters, r.Workers, r.AddedRTTUS)}, "/")
}
