package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results"
)

// rtts is the list of added round trips the matrix runs at: --rtt, or just
// direct.
func (cc *CompareConfig) rtts() ([]time.Duration, error) {
	if len(cc.RTTs) == 0 {
		return []time.Duration{0}, nil
	}
	seen := map[time.Duration]bool{}
	for _, d := range cc.RTTs {
		switch {
		case d < 0:
			return nil, usagef("--rtt %v: must not be negative", d)
		case d > 0 && d < time.Microsecond:
			return nil, usagef("--rtt %v: below the proxy's 1µs resolution", d)
		case seen[d]:
			return nil, usagef("--rtt %v: listed twice", d)
		}
		seen[d] = true
	}
	return cc.RTTs, nil
}

// printRanking shows, per workload, each Redlock cell's rank and cycles/s at
// every added round trip, in the order of the first: how the strategies'
// ranking changes with network distance.
func printRanking(w io.Writer, runs []results.Run, rtts []time.Duration) {
	if len(rtts) < 2 {
		return
	}
	type key struct{ workload, cell string }
	rate := map[key]map[float64]float64{}
	var workloads []string
	for _, r := range runs {
		if r.Backend != "redlock" {
			continue
		}
		cell := r.Client + "/" + r.Mux
		if v := variant(r.Name); v != "" {
			cell += "/" + v
		}
		k := key{r.Workload, cell}
		if rate[k] == nil {
			rate[k] = map[float64]float64{}
			if !contains(workloads, r.Workload) {
				workloads = append(workloads, r.Workload)
			}
		}
		rate[k][r.AddedRTTUS] = r.Throughput.CyclesPerS
	}
	for _, wl := range workloads {
		var cells []string
		for k := range rate {
			if k.workload == wl {
				cells = append(cells, k.cell)
			}
		}
		rank := func(us float64) map[string]int {
			sorted := append([]string(nil), cells...)
			sort.SliceStable(sorted, func(i, j int) bool {
				return rate[key{wl, sorted[i]}][us] > rate[key{wl, sorted[j]}][us]
			})
			out := map[string]int{}
			for i, c := range sorted {
				out[c] = i + 1
			}
			return out
		}
		first := float64(rtts[0].Microseconds())
		r0 := rank(first)
		sort.Slice(cells, func(i, j int) bool { return r0[cells[i]] < r0[cells[j]] })
		fmt.Fprintf(w, "ranking by added round trip (%s): rank. cycles/s\n%-28s", wl, "cell")
		for _, d := range rtts {
			fmt.Fprintf(w, " %16s", "rtt "+d.String())
		}
		fmt.Fprintln(w)
		ranks := make([]map[string]int, len(rtts))
		for i, d := range rtts {
			ranks[i] = rank(float64(d.Microseconds()))
		}
		for _, c := range cells {
			fmt.Fprintf(w, "%-28s", c)
			for i, d := range rtts {
				fmt.Fprintf(w, " %16s", fmt.Sprintf("%d. %.0f", ranks[i][c], rate[key{wl, c}][float64(d.Microseconds())]))
			}
			fmt.Fprintln(w)
		}
	}
}

// variant is the run name's part after backend/client/mux when it is a
// variant such as "defaults", else "".
func variant(name string) string {
	if strings.Contains(name, "/defaults/") {
		return "defaults"
	}
	return ""
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
