package record

import (
	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/schema"
)

// Histogram geometry: nanoseconds up to one hour, three significant digits
// above 131 µs and 64 ns steps below (lowest discernible 100 ns rounds to a
// 64 ns unit): ≈210 KB a histogram. A finer unit costs the tick dearly, since
// merging walks every bucket up to the largest value (BenchmarkTick). Every
// histogram of a run shares the geometry so they merge.
const (
	LowestNS  = 100
	HighestNS = 3_600_000_000_000
	sigFigs   = 3
)

// NewHistogram returns an empty histogram of the run geometry.
func NewHistogram() *hdrhistogram.Histogram {
	return hdrhistogram.New(LowestNS, HighestNS, sigFigs)
}

// Summarize reads the JSON percentiles off a nanosecond histogram.
func Summarize(h *hdrhistogram.Histogram) schema.Percentiles {
	if h == nil || h.TotalCount() == 0 {
		return schema.Percentiles{}
	}
	v := h.ValueAtPercentiles([]float64{50, 90, 99, 99.9})
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	return schema.Percentiles{
		Count: h.TotalCount(),
		Mean:  h.Mean() / 1e3,
		P50:   us(v[50]), P90: us(v[90]), P99: us(v[99]), P999: us(v[99.9]),
		Max: us(h.Max()),
	}
}
