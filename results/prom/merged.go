package prom

import (
	"slices"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lockbench/lockbench/results/schema"
)

// Metric names of several generators' figures merged (one generator
// exports them: see workloads/generators). They are distinct from the local
// ones and carry scope="merged", so a dashboard summing lockbench_cycles_total
// over generators never counts them twice.
const (
	MetricMergedCycles    = "lockbench_merged_cycles_total"
	metricMergedRate      = "lockbench_merged_cycles_per_second"
	metricMergedAttempts  = "lockbench_merged_attempts_total"
	MetricMergedDuration  = "lockbench_merged_op_duration_seconds"
	metricMergedReporting = "lockbench_merged_generators_reporting"
)

// mergedQuantiles are the quantiles the merged duration summary exports,
// read off the exact HDR merge (3 significant figures).
var mergedQuantiles = []float64{0.5, 0.9, 0.99, 0.999}

var mergedLabels = append(withCellLabels("scope"), "generators")

var (
	descMergedCycles = prometheus.NewDesc(MetricMergedCycles,
		"Lock cycles completed in the measured window by every generator of the run together, as of each one's latest published second (after the windows: the merged run's).", mergedLabels, nil)
	descMergedRate = prometheus.NewDesc(metricMergedRate,
		"Cycles per second of the run: the sum of each generator's cycles over its own elapsed measured window (what the merged progress line shows).", mergedLabels, nil)
	descMergedAttempts = prometheus.NewDesc(metricMergedAttempts,
		"Lock attempts in the measured window by every generator of the run together.", mergedLabels, nil)
	descMergedDuration = prometheus.NewDesc(MetricMergedDuration,
		"Op latency over every generator of the run: quantiles of the generators' HDR histograms merged exactly (3 significant figures).",
		append(mergedLabels[:len(mergedLabels):len(mergedLabels)], "op"), nil)
	descMergedReporting = prometheus.NewDesc(metricMergedReporting,
		"Generators whose figures are in the merged series.", mergedLabels, nil)
)

// Merged is the figures of several generators merged: totals of the
// measured window so far and each op's latency percentiles (µs).
type Merged struct {
	Reporting        int
	Cycles, Attempts int64
	CyclesPerS       float64
	LatencyUS        map[string]schema.Percentiles
}

// mergedCell is a cell's merged series. A nil *MergedCell ignores Set.
type mergedCell struct {
	e      *Exporter
	labels []string
	last   Merged // guarded by e.mu
}

// Merged starts the merged series of a cell measured by generators
// processes together; a cell measured again (a compare's next round)
// takes over its series, which start again from zero (a counter reset). A
// nil exporter returns a nil cell.
func (e *Exporter) Merged(l Labels, generators int) *mergedCell {
	if e == nil {
		return nil
	}
	labels := append(l.values(), "merged", strconv.Itoa(generators))
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.merged {
		if slices.Equal(c.labels, labels) {
			c.last = Merged{}
			return c
		}
	}
	c := &mergedCell{e: e, labels: labels}
	e.merged = append(e.merged, c)
	return c
}

// Set replaces the merged figures (once a second, from the merging loop).
func (c *mergedCell) Set(m Merged) {
	if c == nil {
		return
	}
	c.e.mu.Lock()
	c.last = m
	c.e.mu.Unlock()
}

func (c *mergedCell) collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(descMergedCycles, prometheus.CounterValue, float64(c.last.Cycles), c.labels...)
	ch <- prometheus.MustNewConstMetric(descMergedRate, prometheus.GaugeValue, c.last.CyclesPerS, c.labels...)
	ch <- prometheus.MustNewConstMetric(descMergedAttempts, prometheus.CounterValue, float64(c.last.Attempts), c.labels...)
	ch <- prometheus.MustNewConstMetric(descMergedReporting, prometheus.GaugeValue, float64(c.last.Reporting), c.labels...)
	for _, op := range schema.Ops() {
		p, ok := c.last.LatencyUS[op.String()]
		if !ok {
			continue
		}
		q := map[float64]float64{0.5: p.P50 / 1e6, 0.9: p.P90 / 1e6, 0.99: p.P99 / 1e6, 0.999: p.P999 / 1e6}
		ch <- prometheus.MustNewConstSummary(descMergedDuration, uint64(p.Count), p.Mean*float64(p.Count)/1e6, q,
			append(c.labels[:len(c.labels):len(c.labels)], op.String())...)
	}
}
