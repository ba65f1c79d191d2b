package prom

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

var testLabels = Labels{Backend: "redlock", Client: "goredis", Mux: "fanout", Workload: "contended", Masters: 5}

// gather returns the exporter's families by name.
func gather(t *testing.T, e *Exporter) map[string]*dto.MetricFamily {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e)
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		out[f.GetName()] = f
	}
	return out
}

func metricWith(f *dto.MetricFamily, name, value string) *dto.Metric {
	for _, m := range f.GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == name && l.GetValue() == value {
				return m
			}
		}
	}
	return nil
}

// TestObserveSumsIntervals: after several ticks the counters equal the
// registry's total, and each latency sits in the first bucket at or above it.
func TestObserveSumsIntervals(t *testing.T) {
	e := New()
	c := e.Cell(testLabels, 3)
	reg := record.NewRegistry(false)
	rec := reg.NewRecorder()
	lat := []time.Duration{30 * time.Microsecond, 700 * time.Microsecond, 40 * time.Millisecond, 2 * time.Second}
	outcomes := []schema.Outcome{schema.OK, schema.Busy, schema.SplitBrain, schema.Timeout, schema.Error}
	for tick := range 3 {
		for i, d := range lat {
			rec.Record(schema.OpAcquire, outcomes[(i+tick)%len(outcomes)], 0, 0, int64(d))
			rec.Record(schema.OpCycle, schema.OK, 0, 0, int64(d))
		}
		rec.Record(schema.OpRelease, schema.Timeout, 0, 0, 1000)
		rec.Count(schema.OpAcquireTotal, schema.Busy, 1)
		c.Observe(reg.Tick(), int64(tick))
	}
	total := reg.Total()
	fams := gather(t, e)

	if got, want := fams[MetricCycles].GetMetric()[0].GetCounter().GetValue(), float64(total.Count(schema.OpCycle, schema.OK)); got != want {
		t.Errorf("cycles %v, registry %v", got, want)
	}
	for _, o := range outcomes {
		m := metricWith(fams[MetricAttempts], "outcome", o.String())
		if m == nil || m.GetCounter().GetValue() != float64(total.Count(schema.OpAcquire, o)) {
			t.Errorf("attempts{outcome=%s} = %v, registry %d", o, m, total.Count(schema.OpAcquire, o))
		}
	}
	if m := metricWith(fams[MetricReleases], "outcome", "timeout"); m.GetCounter().GetValue() != 3 {
		t.Errorf("releases{timeout} = %v, want 3", m.GetCounter().GetValue())
	}
	if v := fams[MetricGaveUp].GetMetric()[0].GetCounter().GetValue(); v != 3 {
		t.Errorf("gave up %v, want 3", v)
	}
	if v := fams[MetricViolations].GetMetric()[0].GetCounter().GetValue(); v != 2 {
		t.Errorf("violations %v, want the last value given (2)", v)
	}
	h := metricWith(fams[MetricDuration], "op", "acquire").GetHistogram()
	if h.GetSampleCount() != uint64(total.Latency(schema.OpAcquire).TotalCount()) {
		t.Errorf("histogram count %d, registry %d", h.GetSampleCount(), total.Latency(schema.OpAcquire).TotalCount())
	}
	wantSum := 3 * (30e-6 + 700e-6 + 40e-3 + 2)
	if s := h.GetSampleSum(); s < wantSum*0.999 || s > wantSum*1.001 {
		t.Errorf("histogram sum %v, want %v within 0.1%%", s, wantSum)
	}
	var prev uint64
	for _, b := range h.GetBucket() {
		below := 0 // recorded latencies at or under this bound
		for _, d := range lat {
			if d.Seconds() <= b.GetUpperBound() {
				below++
			}
		}
		if b.GetCumulativeCount() != uint64(3*below) {
			t.Errorf("bucket le=%g holds %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), 3*below)
		}
		if b.GetCumulativeCount() < prev {
			t.Errorf("bucket le=%g not cumulative", b.GetUpperBound())
		}
		prev = b.GetCumulativeCount()
	}
	if w := fams[MetricWorkers].GetMetric()[0].GetGauge().GetValue(); w != 3 {
		t.Errorf("workers in flight %v, want 3", w)
	}
	c.Done()
	if w := gather(t, e)[MetricWorkers].GetMetric()[0].GetGauge().GetValue(); w != 0 {
		t.Errorf("workers in flight after Done %v, want 0", w)
	}
}

// TestCellsKeepApart: two cells' series differ by their labels.
func TestCellsKeepApart(t *testing.T) {
	e := New()
	a, b := e.Cell(testLabels, 1), e.Cell(Labels{Backend: "redlock", Client: "rueidis", Mux: "auto", Workload: "contended", Masters: 5}, 1)
	reg := record.NewRegistry(false)
	rec := reg.NewRecorder()
	rec.Record(schema.OpCycle, schema.OK, 0, 0, 1000)
	a.Observe(reg.Tick(), 0)
	rec.Record(schema.OpCycle, schema.OK, 0, 0, 1000)
	rec.Record(schema.OpCycle, schema.OK, 0, 0, 1000)
	b.Observe(reg.Tick(), 0)
	f := gather(t, e)[MetricCycles]
	for client, want := range map[string]float64{"goredis": 1, "rueidis": 2} {
		if m := metricWith(f, "client", client); m.GetCounter().GetValue() != want {
			t.Errorf("cycles{client=%s} = %v, want %v", client, m.GetCounter().GetValue(), want)
		}
	}
}

// TestNilCell: metrics off costs the caller no branch.
func TestNilCell(t *testing.T) {
	var e *Exporter
	c := e.Cell(testLabels, 1)
	c.Observe(nil, 1)
	c.Done()
}

// TestLint: metric names and help follow Prometheus' conventions.
func TestLint(t *testing.T) {
	e := New()
	c := e.Cell(testLabels, 1)
	reg := record.NewRegistry(false)
	reg.NewRecorder().Record(schema.OpAcquire, schema.OK, 0, 0, 1000)
	c.Observe(reg.Tick(), 0)
	problems, err := testutil.CollectAndLint(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
	if n := testutil.CollectAndCount(e, MetricCycles); n != 1 {
		t.Errorf("%d cycles series, want 1", n)
	}
	if err := testutil.CollectAndCompare(e, strings.NewReader(`
# HELP lockbench_workers_in_flight Workers driving the cell now (0 once it ended).
# TYPE lockbench_workers_in_flight gauge
lockbench_workers_in_flight{backend="redlock",client="goredis",masters="5",mux="fanout",workload="contended"} 1
`), MetricWorkers); err != nil {
		t.Error(err)
	}
}

// TestBuckets: increasing, from 5 µs to 10 s, no step over 1.67×, and
// bounds that print as round decimals.
func TestBuckets(t *testing.T) {
	if Buckets[0] != 5e-6 || Buckets[len(Buckets)-1] != 10 {
		t.Fatalf("buckets %v..%v, want 5e-06..10", Buckets[0], Buckets[len(Buckets)-1])
	}
	for i := 1; i < len(Buckets); i++ {
		if r := Buckets[i] / Buckets[i-1]; r <= 1 || r > 1.67 {
			t.Errorf("bucket %v after %v: step %.2f", Buckets[i], Buckets[i-1], r)
		}
		if s := fmt.Sprint(Buckets[i]); len(s) > 8 {
			t.Errorf("bound prints as %s", s)
		}
	}
}

// TestMasterErrors: each master's running count is one series labelled with
// its index and address; a later observation replaces the earlier one.
func TestMasterErrors(t *testing.T) {
	e := New()
	c := e.Cell(testLabels, 1)
	c.ObserveMasters([]schema.MasterErrors{{Index: 2, Master: "127.0.0.1:7002", Errors: 5}})
	c.ObserveMasters([]schema.MasterErrors{{Index: 2, Master: "127.0.0.1:7002", Errors: 9}, {Index: 4, Master: "127.0.0.1:7004", Errors: 1}})
	f := gather(t, e)[MetricMasterErrs]
	if n := len(f.GetMetric()); n != 2 {
		t.Fatalf("%d series, want 2", n)
	}
	for master, want := range map[string]float64{"2": 9, "4": 1} {
		if m := metricWith(f, "master", master); m == nil || m.GetCounter().GetValue() != want {
			t.Errorf("master %s: %v, want %v", master, m, want)
		}
	}
}
