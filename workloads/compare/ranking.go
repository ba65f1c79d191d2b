package compare

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// ranking is one workload's Redlock cells ranked at every added round
// trip: how the strategies' order changes with network distance.
type ranking struct {
	Workload string
	RTTs     []time.Duration
	// Cells in their order at the first round trip.
	Cells []rankedCell
}

// rankedCell is a cell (client/mux[/variant]) and, per round trip, its
// rank (1: fastest) and cycles/s.
type rankedCell struct {
	Cell       string
	Rank       []int
	CyclesPerS []float64
}

// rankingsOf ranks runs' Redlock cells per workload (in the order the
// workloads first appear) at each of rtts; fewer than two round trips
// rank nothing. Runs repeated in rounds rank by their median.
func rankingsOf(runs []schema.Run, rtts []time.Duration) []ranking {
	if len(rtts) < 2 {
		return nil
	}
	runs = stats.MedianRuns(runs)
	type key struct{ workload, cell string }
	rate := map[key]map[float64]float64{}
	var wls []string
	for _, r := range runs {
		if b, _ := backends.Lookup(r.Backend); len(b.Clients) == 0 || len(b.Muxes) == 0 {
			continue // no client × strategy cells to rank
		}
		cell := r.Client + "/" + r.Mux
		if strings.Contains(r.Name, "/defaults/") {
			cell += "/defaults"
		}
		k := key{r.Workload, cell}
		if rate[k] == nil {
			rate[k] = map[float64]float64{}
			if !slices.Contains(wls, r.Workload) {
				wls = append(wls, r.Workload)
			}
		}
		rate[k][r.AddedRTTUS] = r.Throughput.CyclesPerS
	}
	var out []ranking
	for _, wl := range wls {
		var cells []string
		for k := range rate {
			if k.workload == wl {
				cells = append(cells, k.cell)
			}
		}
		sort.Strings(cells) // ties rank in name order, not map order
		ranks := make([]map[string]int, len(rtts))
		for i, d := range rtts {
			us := float64(d.Microseconds())
			sorted := slices.Clone(cells)
			sort.SliceStable(sorted, func(a, b int) bool {
				return rate[key{wl, sorted[a]}][us] > rate[key{wl, sorted[b]}][us]
			})
			ranks[i] = map[string]int{}
			for n, c := range sorted {
				ranks[i][c] = n + 1
			}
		}
		sort.SliceStable(cells, func(a, b int) bool { return ranks[0][cells[a]] < ranks[0][cells[b]] })
		rk := ranking{Workload: wl, RTTs: rtts}
		for _, c := range cells {
			rc := rankedCell{Cell: c}
			for i, d := range rtts {
				rc.Rank = append(rc.Rank, ranks[i][c])
				rc.CyclesPerS = append(rc.CyclesPerS, rate[key{wl, c}][float64(d.Microseconds())])
			}
			rk.Cells = append(rk.Cells, rc)
		}
		out = append(out, rk)
	}
	return out
}
