package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"sort"

	"github.com/lockbench/lockbench/results"
)

// writeCompare prints the table (and ceilings) and writes --json and --out.
func writeCompare(base RunConfig, sum *results.Summary, cells []measured, ceilings map[int]float64) error {
	switch {
	case base.Format == "gobench":
		if err := results.WriteGoBench(base.out(), sum); err != nil {
			return err
		}
	case base.Format == "csv":
		if err := results.WriteCSV(base.out(), sum.Runs); err != nil {
			return err
		}
	case base.JSON != "-":
		ratios := map[string]float64{}
		for _, r := range sum.Runs {
			if v := r.VsSequential; v != nil {
				ratios[r.Name] = *v
			}
		}
		opt := tableOptions(base)
		opt.Ratios, opt.RatioName = ratios, "vs seq"
		if err := results.WriteTable(base.out(), sum.Runs, opt); err != nil {
			return err
		}
		printCompareSummary(base.out(), sum.Runs, ceilings)
	}
	if base.JSON != "" {
		if err := sum.WriteJSONTo(base.out(), base.JSON); err != nil {
			return fmt.Errorf("--json %q: %w", base.JSON, err)
		}
	}
	if base.Out != "" {
		if err := writeOutDir(base.Out, sum, cells); err != nil {
			return fmt.Errorf("--out %q: %w", base.Out, err)
		}
	}
	return nil
}

// printCompareSummary is the compare's own short view under the table:
// per row its throughput, ratio to sequential, heap allocations per cycle
// (whole process) and, with --ceiling, its fraction of the ceiling.
func printCompareSummary(w io.Writer, runs []results.Run, ceilings map[int]float64) {
	counts := make([]int, 0, len(ceilings))
	for m := range ceilings {
		counts = append(counts, m)
	}
	sort.Ints(counts)
	for _, m := range counts {
		cost := ""
		for _, r := range runs {
			if c := r.CeilingCost; c != nil && r.Masters == m {
				cost = "; " + ceilingCostText(c)
				break
			}
		}
		fmt.Fprintf(w, "ceiling (redis-benchmark -P 16, %d masters): %.0f cycles/s%s\n", m, ceilings[m], cost)
	}
	// Per cycle: allocations, client and server CPU µs, client write
	// syscalls. The name column is as wide as the longest name, so the list
	// fits 100 columns with the ceiling column.
	nameW := len("run")
	for _, r := range runs {
		nameW = max(nameW, len(r.Name))
	}
	fmt.Fprintf(w, "%-*s %8s %7s %7s %9s %9s %7s", nameW, "run", "cycles/s", "vs seq", "allocs", "client µs", "server µs", "writes")
	if len(ceilings) > 0 {
		fmt.Fprintf(w, " %8s", "ceiling")
	}
	fmt.Fprintln(w)
	for _, r := range runs {
		ratio, ofC := "-", "-"
		if v := r.VsSequential; v != nil {
			ratio = fmt.Sprintf("%.2f×", *v)
		}
		if v := r.OfCeiling; v != nil {
			ofC = fmt.Sprintf("%.1f%%", 100**v)
		}
		fmt.Fprintf(w, "%-*s %8.0f %7s %7.1f %s", nameW, r.Name, r.Throughput.CyclesPerS, ratio, r.AllocsPerCycle, costCells(r.Cost))
		if len(ceilings) > 0 {
			fmt.Fprintf(w, " %8s", ofC)
		}
		fmt.Fprintln(w)
	}
}

// costCells are a run's client and server CPU µs and write syscalls per
// cycle (server marked * when read from INFO cpu).
func costCells(c *results.Cost) string {
	if c == nil {
		return fmt.Sprintf("%9s %9s %7s", "-", "-", "-")
	}
	server := "-"
	if c.ServerCPUSource != "" {
		server = fmt.Sprintf("%.1f", c.ServerCPUUSPerCycle)
		if c.ServerCPUSource == results.ServerCPUInfo {
			server += "*"
		}
	}
	return fmt.Sprintf("%9.1f %9s %7.2f", c.ClientCPUUSPerCycle, server, c.ClientWritesPerCycle)
}

// startCPUProfile profiles lockbench itself (not the servers) into path
// until stop is called.
func startCPUProfile(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile %q: %w", path, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %q: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
