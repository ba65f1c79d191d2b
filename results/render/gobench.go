package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// WriteGoBench prints runs as Go benchmark result lines, so benchstat and
// the usual CI benchmark actions read lockbench results as they are:
//
//	BenchmarkLock/redlock/rueidis/auto/uncontended-8  123456  8100 ns/op  2100 p50-ns  9800 p99-ns ...
//
// ns/op is wall time per completed cycle across all workers (1e9 / cycles
// per second, as b.RunParallel reports it); the percentiles are of the
// cycle latency; N is the cycles completed. The -N suffix is the CPUs of
// the measuring host, as go test prints GOMAXPROCS. A run that completed
// no cycle has no speed: it is written as a comment line, which benchstat
// skips, rather than as 0 ns/op, which it would read as infinitely fast;
// a percentile of no samples is left out of its line, never written as 0.
func WriteGoBench(w io.Writer, s *schema.Summary) error {
	fmt.Fprintf(w, "goos: %s\ngoarch: %s\npkg: github.com/lockbench/lockbench\n", s.Host.OS, s.Host.Arch)
	for _, r := range s.Runs {
		if _, err := io.WriteString(w, goBenchLine(r, s.Host.CPUs)+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// goBenchLine is one run as a benchmark line; for a run without a
// completed cycle, a "#" comment saying so.
func goBenchLine(r schema.Run, cpus int) string {
	name := "BenchmarkLock/" + strings.Map(func(c rune) rune {
		if c == ' ' || c == '\t' {
			return '_'
		}
		return c
	}, r.Name)
	if cpus > 0 {
		name += fmt.Sprintf("-%d", cpus)
	}
	if r.Counts.Cycles == 0 || r.Throughput.CyclesPerS <= 0 {
		return fmt.Sprintf("# %s: no cycle completed (%d attempts, %d acquired): no speed to report", name, r.Counts.Attempts, r.Counts.Acquired)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\t%d", name, r.Counts.Cycles)
	metric := func(v float64, unit string) {
		if v >= 100 || v == float64(int64(v)) {
			fmt.Fprintf(&b, "\t%.0f %s", v, unit)
		} else {
			fmt.Fprintf(&b, "\t%.4g %s", v, unit)
		}
	}
	metric(1e9/r.Throughput.CyclesPerS, "ns/op")
	if c := r.LatencyUS["cycle"]; c.Count > 0 {
		metric(c.P50*1e3, "p50-ns")
		metric(c.P99*1e3, "p99-ns")
		metric(c.P999*1e3, "p99.9-ns")
	}
	if a := r.LatencyUS["acquire"]; a.Count > 0 {
		metric(a.P99*1e3, "acquire-p99-ns")
	}
	metric(r.Throughput.CyclesPerS, "cycles/s")
	metric(float64(r.Counts.Attempts)/float64(r.Counts.Cycles), "attempts/op")
	metric(r.AllocsPerCycle, "allocs/op")
	metric(float64(r.Counts.Errors+r.Counts.Timeouts), "errors")
	metric(float64(r.Counts.Violations), "violations")
	metric(float64(r.Counts.StaleOverlaps), "stale-overlaps")
	return b.String()
}
