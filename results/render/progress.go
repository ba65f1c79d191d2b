package render

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// ProgressLine is the once-a-second stderr line of a cell, labelled so the
// per-second figures (now:) are not mistaken for the running totals
// (total:): "  3s  now:  12345 cycles/s, p99 812µs | total: 37035 cycles,
// p99 790µs, split 12/40110 attempts, failed ops 0". It fits 100 columns.
// Failed ops are the table's errors and timeouts: acquire attempts that
// failed and releases that did; a command one master failed inside an
// attempt the quorum still decided is not one (those are counted per
// master under the table, as failed commands).
func ProgressLine(elapsed time.Duration, iv, total *record.Interval) string {
	secs := iv.End.Sub(iv.Start).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(iv.Count(schema.OpCycle, schema.OK)) / secs
	}
	line := fmt.Sprintf("%4.0fs  now: %6.0f cycles/s, p99 %s | total: %d cycles, p99 %s",
		elapsed.Seconds(), rate, short(p99(iv)), total.Count(schema.OpCycle, schema.OK), short(p99(total)))
	if split := total.Count(schema.OpAcquire, schema.SplitBrain); split > 0 {
		line += fmt.Sprintf(", split %d/%d attempts", split, total.Total(schema.OpAcquire))
	}
	errs := total.Count(schema.OpAcquire, schema.Error) + total.Count(schema.OpAcquire, schema.Timeout) + total.Total(schema.OpRelease) - total.Count(schema.OpRelease, schema.OK)
	return line + fmt.Sprintf(", failed ops %d", errs)
}

// p99 of the cycle latency.
func p99(iv *record.Interval) time.Duration {
	return time.Duration(iv.Latency(schema.OpCycle).ValueAtPercentile(99))
}

// short is a latency in 3 or 4 characters and its unit: 812µs, 4.1ms, 87ms, 1.06s.
func short(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= 10*time.Millisecond:
		return fmt.Sprintf("%.0fms", float64(d)/1e6)
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1fms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.0fµs", float64(d)/1e3)
}
