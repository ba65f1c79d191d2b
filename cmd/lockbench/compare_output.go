package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/compare"
)

// writeCompare prints the table with its "vs seq" column and the
// compare's summary under it, and writes --json and --out.
func writeCompare(stdout io.Writer, base RunConfig, sum *results.Summary, cells []measured, ceilings map[int]float64) error {
	w := base.writer(stdout)
	w.TableOptions.Ratios, w.TableOptions.RatioName = compare.VsSequential(sum.Runs), "vs seq"
	w.Below = func(out io.Writer) { compare.WriteSummary(out, sum.Runs, ceilings) }
	return flagError(w.Write(sum, cellLogs(cells)))
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
