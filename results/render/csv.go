package render

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/lockbench/lockbench/results/schema"
)

// csvOps are the ops whose percentiles the CSV carries.
var csvOps = []string{"acquire", "acquire_total", "release", "cycle"}

// WriteCSV writes the runs table for spreadsheets: one header row of
// snake_case names, one row per run, plain numbers (µs, shares in [0, 1]),
// every column the JSON has for a run but "extra" — except the compare's ratio
// to sequential and fraction of the ceiling, when present; "repeat" is the
// last column only when some run was repeated in rounds. A percentile of
// no samples is an empty cell, never 0.
func WriteCSV(w io.Writer, runs []schema.Run) error {
	header := []string{"name", "backend", "client", "mux", "masters", "workload", "keys", "workers", "rate",
		"duration_s", "interrupted", "cycles_per_s", "attempts_per_s"}
	for _, op := range csvOps {
		for _, p := range []string{"p50", "p90", "p99", "p999", "max"} {
			header = append(header, op+"_"+p+"_us")
		}
	}
	header = append(header, "attempts", "acquired", "busy", "split_brain", "timeouts", "errors", "violations",
		"stale_overlaps", "cycles", "gave_up", "release_errors", "split_brain_rate", "error_rate",
		"retries_per_acquire", "fairness", "allocs_per_cycle", "missed_starts", "vs_sequential", "of_ceiling",
		"client_cpu_us_per_cycle", "server_cpu_us_per_cycle", "server_cpu_source", "client_writes_per_cycle")
	repeated := false // a compare --repeat: each run's round, as a last column
	for _, r := range runs {
		repeated = repeated || r.Repeat > 0
	}
	if repeated {
		header = append(header, "repeat")
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range runs {
		row := []string{r.Name, r.Backend, r.Client, r.Mux, i(int64(r.Masters)), r.Workload, i(int64(r.Keys)),
			i(int64(r.Workers)), f(r.Rate), f(r.DurationS), strconv.FormatBool(r.Interrupted),
			f(r.Throughput.CyclesPerS), f(r.Throughput.AttemptsPerS)}
		for _, op := range csvOps {
			if p := r.LatencyUS[op]; p.Count > 0 {
				row = append(row, f(p.P50), f(p.P90), f(p.P99), f(p.P999), f(p.Max))
			} else {
				row = append(row, "", "", "", "", "") // no samples: no latency, not 0 µs
			}
		}
		c := r.Counts
		row = append(row, i(c.Attempts), i(c.Acquired), i(c.Busy), i(c.SplitBrain), i(c.Timeouts), i(c.Errors),
			i(c.Violations), i(c.StaleOverlaps), i(c.Cycles), i(c.GaveUp), i(c.ReleaseErrors),
			f(r.SplitBrainRate), f(ErrorRate(r)), f(r.RetriesPerAcquire), f(r.Fairness), f(r.AllocsPerCycle),
			i(r.MissedStarts), opt(r.VsSequential), opt(r.OfCeiling))
		if c := r.Cost; c != nil {
			row = append(row, f(c.ClientCPUUSPerCycle), f(c.ServerCPUUSPerCycle), c.ServerCPUSource, f(c.ClientWritesPerCycle))
		} else {
			row = append(row, "", "", "", "")
		}
		if repeated {
			row = append(row, i(int64(r.Repeat)))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// opt is an optional measure's cell: empty when absent.
func opt(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}
