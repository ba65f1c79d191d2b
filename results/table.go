package results

import (
	"fmt"
	"io"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// TableOptions add optional columns.
type TableOptions struct {
	// Ratios, keyed by run name, adds a column "vs base" (e.g. the ratio of
	// each run's throughput to the sequential baseline of the same run).
	Ratios    map[string]float64
	RatioName string
}

// WriteTable prints the end-of-run table, one row per run. A "stale"
// column (stale overlaps, beside violations) appears only when some run
// has any.
func WriteTable(w io.Writer, runs []Run, opt TableOptions) error {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off))
	header := []any{"run", "workers", "cycles/s", "attempts/s",
		"acquire p50 µs", "acquire p99 µs", "acq_total p99 µs", "cycle p50 µs", "cycle p99 µs",
		"acquired", "busy", "split", "timeouts", "errors", "violations"}
	stale := false
	for _, r := range runs {
		stale = stale || r.Counts.StaleOverlaps > 0
	}
	if stale {
		header = append(header, "stale")
	}
	header = append(header, "split %", "retries/acq", "fairness", "margin p50 ms", "missed starts", "server µs/cycle")
	if opt.Ratios != nil {
		name := opt.RatioName
		if name == "" {
			name = "ratio"
		}
		header = append(header, name)
	}
	t.Header(header...)
	for _, r := range runs {
		row := []any{r.Name, r.Workers, num(r.Throughput.CyclesPerS), num(r.Throughput.AttemptsPerS),
			us(r.LatencyUS["acquire"].P50), us(r.LatencyUS["acquire"].P99), us(r.LatencyUS["acquire_total"].P99),
			us(r.LatencyUS["cycle"].P50), us(r.LatencyUS["cycle"].P99),
			r.Counts.Acquired, r.Counts.Busy, r.Counts.SplitBrain, r.Counts.Timeouts, r.Counts.Errors, r.Counts.Violations}
		if stale {
			row = append(row, r.Counts.StaleOverlaps)
		}
		row = append(row, refereeCells(r)...)
		row = append(row, serverCostCell(r.Cost))
		if opt.Ratios != nil {
			if v, ok := opt.Ratios[r.Name]; ok {
				row = append(row, fmt.Sprintf("%.2f×", v))
			} else {
				row = append(row, "-")
			}
		}
		if err := t.Append(row...); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	return WriteErrors(w, runs)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

func us(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// ProgressLine is the once-a-second stderr line: elapsed, cycles/s in the
// last interval, p50/p99 of cycles so far, failures so far.
func ProgressLine(name string, elapsedS float64, iv, total *Interval) string {
	secs := iv.End.Sub(iv.Start).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(iv.Count(OpCycle, OK)) / secs
	}
	h := total.Latency(OpCycle)
	errs := total.Count(OpAcquire, Error) + total.Count(OpAcquire, Timeout) + total.Total(OpRelease) - total.Count(OpRelease, OK)
	return fmt.Sprintf("%s %5.1fs  %8.0f cycles/s  cycle p50 %s µs p99 %s µs  busy %d split %d errors %d",
		name, elapsedS, rate, us(float64(h.ValueAtPercentile(50))/1e3), us(float64(h.ValueAtPercentile(99))/1e3),
		total.Count(OpAcquire, Busy), total.Count(OpAcquire, SplitBrain), errs)
}

// serverCostCell is the masters' CPU per cycle; "-" when unknown, a "*"
// when read from INFO cpu (external masters: other clients count too).
func serverCostCell(c *Cost) string {
	if c == nil || c.ServerCPUSource == "" {
		return "-"
	}
	v := us(c.ServerCPUUSPerCycle)
	if c.ServerCPUSource == ServerCPUInfo {
		v += "*"
	}
	return v
}

// refereeCells are the referee's and the pacer's columns.
func refereeCells(r Run) []any {
	margin, missed := "-", "-"
	if m := r.ValidityMarginUS; m != nil && m.Count > 0 {
		margin = strconv.FormatFloat(m.P50/1e3, 'f', 1, 64)
	}
	if r.Rate > 0 {
		missed = strconv.FormatInt(r.MissedStarts, 10)
	}
	return []any{strconv.FormatFloat(100*r.SplitBrainRate, 'f', 1, 64), strconv.FormatFloat(r.RetriesPerAcquire, 'f', 2, 64),
		strconv.FormatFloat(r.Fairness, 'f', 3, 64), margin, missed}
}
