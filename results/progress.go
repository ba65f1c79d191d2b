package results

import (
	"fmt"
	"time"
)

// ProgressLine is the once-a-second stderr line of a cell, labelled so the
// per-second figures (now:) are not mistaken for the running totals
// (total:): "  3s  now: 12345 cycles/s p99 812 µs | total: 37035 cycles
// p99 790 µs, split 0.0%, errors 0". It fits 100 columns.
func ProgressLine(elapsed time.Duration, iv, total *Interval) string {
	secs := iv.End.Sub(iv.Start).Seconds()
	rate := 0.0
	if secs > 0 {
		rate = float64(iv.Count(OpCycle, OK)) / secs
	}
	line := fmt.Sprintf("%4.0fs  now: %6.0f cycles/s p99 %s µs | total: %d cycles p99 %s µs",
		elapsed.Seconds(), rate, us(p99(iv)), total.Count(OpCycle, OK), us(p99(total)))
	if split, busy := total.Count(OpAcquire, SplitBrain), total.Count(OpAcquire, Busy); split+busy > 0 {
		line += ", split " + percent(float64(split)/float64(split+busy)) + "%"
	}
	errs := total.Count(OpAcquire, Error) + total.Count(OpAcquire, Timeout) + total.Total(OpRelease) - total.Count(OpRelease, OK)
	return line + fmt.Sprintf(", errors %d", errs)
}

// p99 of the cycle latency in µs.
func p99(iv *Interval) float64 {
	return float64(iv.Latency(OpCycle).ValueAtPercentile(99)) / 1e3
}
