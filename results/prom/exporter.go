// Package prom exports a run's measurements as Prometheus metrics while it
// runs. It is fed the intervals the results registry merges once a second
// (Cell.Observe, from the tick goroutine), never a recorded sample: a worker
// never touches anything here, and a scrape only waits for a tick's short
// update, never for a worker. It imports nothing of lockbench but results.
//
// Warmup: only measured-window intervals are fed (the workloads loop hands
// OnInterval nothing from the warmup), so when a cell ends its counters
// equal the summary's counts, and its histogram counts the summary's
// latency counts.
package prom

import (
	"sort"
	"strconv"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// Labels name a cell; every series of the cell carries them.
type Labels struct {
	Backend, Client, Mux, Workload string
	Masters                        int
}

func (l Labels) values() []string {
	return []string{l.Backend, l.Client, l.Mux, l.Workload, strconv.Itoa(l.Masters)}
}

var cellLabels = []string{"backend", "client", "mux", "workload", "masters"}

// Buckets are the op duration histogram's upper bounds in seconds: 5 µs to
// 10 s at 1, 1.5, 2, 3, 5, 7 per decade (each at most 1.67× the one
// before), so a quantile read off them holds from a loopback acquire (tens
// of µs) to a stalled cycle (seconds), and the bounds read as round numbers
// (le="0.0003"). The summary JSON keeps the exact HDR percentiles.
var Buckets = decades(5e-6, 10, 1, 1.5, 2, 3, 5, 7)

func decades(lo, hi float64, steps ...float64) []float64 {
	var out []float64
	for exp := -7; exp <= 2; exp++ {
		for _, m := range steps {
			// Parsed from decimal so a bound prints as written (0.0003,
			// not 0.00030000000000000003).
			v, _ := strconv.ParseFloat(strconv.FormatFloat(m, 'f', -1, 64)+"e"+strconv.Itoa(exp), 64)
			if v >= lo && v <= hi {
				out = append(out, v)
			}
		}
	}
	return out
}

// Metric names, exported so the dashboard test can check queries.
const (
	MetricCycles     = "lockbench_cycles_total"
	MetricAttempts   = "lockbench_attempts_total"
	MetricReleases   = "lockbench_releases_total"
	MetricGaveUp     = "lockbench_gave_up_total"
	MetricViolations = "lockbench_violations_total"
	MetricDuration   = "lockbench_op_duration_seconds"
	MetricWorkers    = "lockbench_workers_in_flight"
	metricMasters    = "lockbench_masters"
	metricDropped    = "lockbench_dropped_samples_total"
	MetricMasterErrs = "lockbench_master_errors_total"
)

var (
	descCycles = prometheus.NewDesc(MetricCycles,
		"Lock cycles completed (acquired, held, released) in the measured window.", cellLabels, nil)
	descAttempts = prometheus.NewDesc(MetricAttempts,
		"Lock attempts by outcome (acquired, busy, split_brain, timeout, error) in the measured window.",
		withCellLabels("outcome"), nil)
	descReleases = prometheus.NewDesc(MetricReleases,
		"Releases by outcome (acquired = released; timeout = the lock had expired; error).",
		withCellLabels("outcome"), nil)
	descGaveUp = prometheus.NewDesc(MetricGaveUp,
		"Cycles that ran out of --tries without acquiring.", cellLabels, nil)
	descViolations = prometheus.NewDesc(MetricViolations,
		"Safety violations the referee saw: two grants of one key with overlapping validity, or a fence going backwards.", cellLabels, nil)
	descDuration = prometheus.NewDesc(MetricDuration,
		"Op latency from the (intended) start: acquire = one attempt, acquire_total = until acquired, release, cycle, extend.",
		withCellLabels("op"), nil)
	descWorkers = prometheus.NewDesc(MetricWorkers,
		"Workers driving the cell now (0 once it ended).", cellLabels, nil)
	descMasters = prometheus.NewDesc(metricMasters,
		"Redis masters the cell's Redlock reaches (0 for etcd).", cellLabels, nil)
	descMasterErrs = prometheus.NewDesc(MetricMasterErrs,
		"Failed and timed-out commands per master (per backend when it does not say which server failed), warmup included, as the errors block under the table counts them.",
		withCellLabels("master", "addr"), nil)
	descDropped = prometheus.NewDesc(metricDropped,
		"Latencies outside the histogram geometry (over 1 h), not in any bucket.", cellLabels, nil)
)

// withCellLabels is the cell's labels followed by more (a fresh slice:
// cellLabels itself is never appended to).
func withCellLabels(more ...string) []string {
	return append(cellLabels[:len(cellLabels):len(cellLabels)], more...)
}

// Exporter is a prometheus.Collector holding every cell's running totals.
type Exporter struct {
	mu     sync.Mutex
	cells  []*Series     // in start order; a cell's series stay after it ends
	merged []*mergedCell // several generators' cells merged
}

// New makes an empty exporter; register it with a prometheus.Registerer.
func New() *Exporter { return &Exporter{} }

// Series is one measured cell's running totals. A nil *Series ignores every call,
// so callers need no branch when metrics are off.
type Series struct {
	e       *Exporter
	labels  []string
	masters int
	// Guarded by e.mu.
	workers    int
	counts     [schema.NumOps][schema.NumOutcomes]uint64
	buckets    [schema.NumOps][]uint64 // per bucket, not cumulative; last = +Inf
	sums       [schema.NumOps]float64
	hcount     [schema.NumOps]uint64
	violations uint64
	dropped    uint64
	masterErrs []schema.MasterErrors
}

// Cell starts the series of a cell with workers in flight. A nil exporter
// returns a nil cell.
func (e *Exporter) Cell(l Labels, workers int) *Series {
	if e == nil {
		return nil
	}
	c := &Series{e: e, labels: l.values(), masters: l.Masters, workers: workers}
	for op := range c.buckets {
		c.buckets[op] = make([]uint64, len(Buckets)+1)
	}
	e.mu.Lock()
	e.cells = append(e.cells, c)
	e.mu.Unlock()
	return c
}

// Observe adds one merged interval and sets the violations seen so far
// (the referee's running count). Call it from the tick, after Registry.Tick
// and before the next one.
func (c *Series) Observe(iv *record.Interval, violations int64) {
	if c == nil {
		return
	}
	// Read the histograms outside the lock: a scrape waits only for the adds.
	var add [schema.NumOps][]uint64
	var sums [schema.NumOps]float64
	var n [schema.NumOps]uint64
	for _, op := range schema.Ops() {
		h := iv.Latency(op)
		if h == nil || h.TotalCount() == 0 {
			continue
		}
		add[op] = make([]uint64, len(Buckets)+1)
		for _, b := range h.Distribution() {
			if b.Count == 0 {
				continue
			}
			// A value's bucket is decided by the lowest value hdr could have
			// recorded it as: within 0.1 % (3 significant digits).
			i := sort.SearchFloat64s(Buckets, float64(b.From)/1e9)
			add[op][i] += uint64(b.Count)
			n[op] += uint64(b.Count)
		}
		sums[op] = h.Mean() * float64(h.TotalCount()) / 1e9
	}
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	for op := range c.counts {
		for o := range c.counts[op] {
			c.counts[op][o] += uint64(iv.Count(schema.Op(op), schema.Outcome(o)))
		}
		if add[op] != nil {
			for i, v := range add[op] {
				c.buckets[op][i] += v
			}
			c.sums[op] += sums[op]
			c.hcount[op] += n[op]
		}
	}
	c.violations = uint64(max(violations, 0))
	c.dropped += uint64(max(iv.Dropped, 0))
}

// ObserveMasters sets each master's errors so far (running counts, as the
// driver's error log keeps them). Call it on the tick.
func (c *Series) ObserveMasters(ms []schema.MasterErrors) {
	if c == nil {
		return
	}
	c.e.mu.Lock()
	c.masterErrs = append(c.masterErrs[:0], ms...)
	c.e.mu.Unlock()
}

// Done marks the cell ended: no workers in flight. Its totals stay.
func (c *Series) Done() {
	if c == nil {
		return
	}
	c.e.mu.Lock()
	c.workers = 0
	c.e.mu.Unlock()
}

// Describe implements prometheus.Collector.
func (e *Exporter) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descCycles, descAttempts, descReleases, descGaveUp,
		descViolations, descDuration, descWorkers, descMasters, descDropped, descMasterErrs,
		descMergedCycles, descMergedRate, descMergedAttempts, descMergedDuration, descMergedReporting} {
		ch <- d
	}
}

// Collect implements prometheus.Collector: a snapshot of every cell.
func (e *Exporter) Collect(ch chan<- prometheus.Metric) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, c := range e.cells {
		c.collect(ch)
	}
	for _, c := range e.merged {
		c.collect(ch)
	}
}

func (c *Series) collect(ch chan<- prometheus.Metric) {
	with := func(extra string) []string { return append(c.labels[:len(c.labels):len(c.labels)], extra) }
	counter := func(d *prometheus.Desc, v uint64, lv []string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), lv...)
	}
	counter(descCycles, c.counts[schema.OpCycle][schema.OK], c.labels)
	for o := range schema.NumOutcomes {
		counter(descAttempts, c.counts[schema.OpAcquire][o], with(o.String()))
	}
	for _, o := range []schema.Outcome{schema.OK, schema.Timeout, schema.Error} {
		counter(descReleases, c.counts[schema.OpRelease][o], with(o.String()))
	}
	var gaveUp uint64
	for o, v := range c.counts[schema.OpAcquireTotal] {
		if schema.Outcome(o) != schema.OK {
			gaveUp += v
		}
	}
	counter(descGaveUp, gaveUp, c.labels)
	counter(descViolations, c.violations, c.labels)
	counter(descDropped, c.dropped, c.labels)
	for _, m := range c.masterErrs {
		counter(descMasterErrs, uint64(max(m.Errors, 0)), append(c.labels[:len(c.labels):len(c.labels)], strconv.Itoa(m.Index), m.Master))
	}
	ch <- prometheus.MustNewConstMetric(descWorkers, prometheus.GaugeValue, float64(c.workers), c.labels...)
	ch <- prometheus.MustNewConstMetric(descMasters, prometheus.GaugeValue, float64(c.masters), c.labels...)
	for _, op := range schema.Ops() {
		if op == schema.OpExtend && c.hcount[op] == 0 {
			continue // most runs never extend
		}
		cum := make(map[float64]uint64, len(Buckets))
		var run uint64
		for i, ub := range Buckets {
			run += c.buckets[op][i]
			cum[ub] = run
		}
		ch <- prometheus.MustNewConstHistogram(descDuration, c.hcount[op], c.sums[op], cum, with(op.String())...)
	}
}
