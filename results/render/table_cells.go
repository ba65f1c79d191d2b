package render

import (
	"strconv"

	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/schema"
)

// The figures of a table's cells: shares of a run's attempts, latencies
// and costs in the table's units.

// splitShare is the share of attempts that were split brain: nobody won
// the round (the table's "split % att"). split_brain_rate is another
// share, of the failed attempts (busy + split brain).
func splitShare(r schema.Run) float64 {
	if r.Counts.Attempts == 0 {
		return 0
	}
	return float64(r.Counts.SplitBrain) / float64(r.Counts.Attempts)
}

// ErrorRate is the share of attempts that failed on the masters (errors and
// timeouts) plus failed releases: what a sweep holds to --max-error-rate.
func ErrorRate(r schema.Run) float64 {
	if r.Counts.Attempts == 0 {
		return 0
	}
	return float64(r.Counts.Errors+r.Counts.Timeouts+r.Counts.ReleaseErrors) / float64(r.Counts.Attempts)
}

// latency is a column's cell: percentile p (50 or 99) of op in µs, "-"
// when op was not measured.
func latency(op string, p int) func(schema.Run, TableOptions) string {
	return func(r schema.Run, _ TableOptions) string {
		l := r.LatencyUS[op]
		if l.Count == 0 {
			return "-"
		}
		if p == 50 {
			return us(l.P50)
		}
		return us(l.P99)
	}
}

func count(f func(schema.Counts) int64) func(schema.Run, TableOptions) string {
	return func(r schema.Run, _ TableOptions) string { return strconv.FormatInt(f(r.Counts), 10) }
}

func percent(share float64) string { return strconv.FormatFloat(100*share, 'f', 1, 64) }

// serverCostCell is the masters' CPU per cycle; "-" when unknown, a "*"
// when read from INFO cpu (external masters: other clients count too).
func serverCostCell(c *schema.Cost) string {
	if c == nil || c.ServerCPUSource == "" {
		return "-"
	}
	v := us(c.ServerCPUUSPerCycle)
	if c.ServerCPUSource == procstat.ServerCPUInfo {
		v += "*"
	}
	return v
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

func us(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
