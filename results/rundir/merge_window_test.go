package rundir_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/internal/fixture"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// paced is an open-loop run of rate cycles/s measured for n intervals of
// span ms each from startMs (ms since the epoch): its logs and its run, as a
// run directory of its own.
func paced(name string, startMs int64, n int, span int64, rate float64) *rundir.RunDir {
	logs := record.RunLogs{}
	var total int64
	for _, op := range []schema.Op{schema.OpCycle, schema.OpAcquire} {
		var hs []*hdrhistogram.Histogram
		for i := range n {
			h := record.NewHistogram()
			s := startMs + int64(i)*span
			h.SetStartTimeMs(s)
			h.SetEndTimeMs(s + span)
			per := int64(math.Round(rate * float64(span) / 1e3))
			for range per {
				_ = h.RecordValue(20_000)
			}
			if op == schema.OpCycle {
				total += per
			}
			hs = append(hs, h)
		}
		logs[op.String()] = hs
	}
	r := schema.Run{Name: "redlock/goredis/fanout/uncontended", Workers: 4, Rate: rate, DurationS: float64(int64(n)*span) / 1e3,
		Counts: schema.Counts{Attempts: total, Acquired: total, Cycles: total}}
	s := fixture.Summary(r)
	s.Started = time.UnixMilli(startMs).UTC()
	return &rundir.RunDir{Dir: name, Path: name + "/summary.json", Summary: s, Logs: map[string]record.RunLogs{r.Name: logs}}
}

// TestMergeRateOverRealWindows: runs whose intervals do not line up merge
// to the sum of their rates, whatever their offset: each input's intervals
// are counted over the part of the common window they really cover.
func TestMergeRateOverRealWindows(t *testing.T) {
	t0 := int64(1_700_000_000_000)
	for _, c := range []struct {
		name   string
		inputs []*rundir.RunDir
		want   float64
	}{
		{"two 500/s runs started 1.4 s apart", []*rundir.RunDir{paced("a", t0, 5, 1000, 500), paced("b", t0+1400, 5, 1000, 500)}, 1000},
		{"started 0.5 s apart", []*rundir.RunDir{paced("a", t0, 10, 1000, 500), paced("b", t0+500, 10, 1000, 500)}, 1000},
		{"started 0.3 s apart, unequal rates", []*rundir.RunDir{paced("a", t0+200, 8, 1000, 300), paced("b", t0+500, 8, 1000, 700)}, 1000},
		{"three runs, 0.1, 0.7 and 1.9 s", []*rundir.RunDir{paced("a", t0+100, 6, 1000, 200), paced("b", t0+700, 6, 1000, 200), paced("c", t0+1900, 6, 1000, 200)}, 600},
		{"aligned", []*rundir.RunDir{paced("a", t0, 4, 1000, 250), paced("b", t0, 4, 1000, 250)}, 500},
		{"half-second intervals against whole ones", []*rundir.RunDir{paced("a", t0, 12, 500, 400), paced("b", t0+250, 6, 1000, 400)}, 800},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i, d := range c.inputs { // distinct identities
				d.Summary.Host.Hostname = fmt.Sprint("host", i)
			}
			sum, _, err := rundir.Merge(c.inputs, false)
			if err != nil {
				t.Fatal(err)
			}
			r := sum.Runs[0]
			if got := r.Throughput.CyclesPerS; math.Abs(got-c.want) > c.want*0.01 {
				t.Errorf("merged %.1f cycles/s over %.2f s, want %.0f (the inputs' sum)", got, r.DurationS, c.want)
			}
			if got := r.Throughput.AttemptsPerS; math.Abs(got-c.want) > c.want*0.01 {
				t.Errorf("merged %.1f attempts/s, want %.0f", got, c.want)
			}
		})
	}
}

// TestMergeProbesEachGenerator: every generator probed the state of its
// own machine; the merged run carries their median, not the first input's,
// and leaves out an input that had no probe.
func TestMergeProbesEachGenerator(t *testing.T) {
	t0 := int64(1_700_000_000_000)
	inputs := []*rundir.RunDir{paced("a", t0, 4, 1000, 250), paced("b", t0, 4, 1000, 250), paced("c", t0, 4, 1000, 250), paced("d", t0, 4, 1000, 250)}
	for i, ns := range []float64{400, 200, 0, 300} {
		inputs[i].Summary.Host.Hostname = fmt.Sprint("host", i)
		inputs[i].Summary.Runs[0].MemoryProbeNS = ns
	}
	sum, _, err := rundir.Merge(inputs, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := sum.Runs[0].MemoryProbeNS; got != 300 {
		t.Errorf("merged memory_probe_ns %v, want 300 (the median of 400, 200, 300)", got)
	}
}

// TestMergeRefusesInvalidInput: merge refuses what gate refuses as input,
// naming the input: an unknown schema, no runs, a run twice in one
// summary, negative or non-finite counts and figures.
func TestMergeRefusesInvalidInput(t *testing.T) {
	t0 := int64(1_700_000_000_000)
	for _, c := range []struct {
		name  string
		spoil func(s *schema.Summary)
		want  string
	}{
		{"schema of another version", func(s *schema.Summary) { s.Schema = "lockbench/v2" }, "unknown schema"},
		{"schema of another tool", func(s *schema.Summary) { s.Schema = "" }, "unknown schema"},
		{"no runs", func(s *schema.Summary) { s.Runs = nil }, "no runs"},
		{"a run twice in one summary", func(s *schema.Summary) { s.Runs = append(s.Runs, s.Runs[0]) }, "twice"},
		{"negative cycles", func(s *schema.Summary) { s.Runs[0].Counts.Cycles = -5 }, "counts.cycles -5"},
		{"negative errors", func(s *schema.Summary) { s.Runs[0].Counts.Errors = -1 }, "counts.errors -1"},
		{"negative workers", func(s *schema.Summary) { s.Runs[0].Workers = -4 }, "workers -4"},
		{"negative duration", func(s *schema.Summary) { s.Runs[0].DurationS = -1 }, "duration_s -1"},
		{"negative latency", func(s *schema.Summary) { s.Runs[0].LatencyUS = map[string]schema.Percentiles{"cycle": {P99: -3}} }, "latency_us.cycle"},
		{"NaN throughput", func(s *schema.Summary) { s.Runs[0].Throughput.CyclesPerS = math.NaN() }, "impossible value"},
		{"infinite rate", func(s *schema.Summary) { s.Runs[0].Rate = math.Inf(1) }, "impossible value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := paced("a", t0, 3, 1000, 100), paced("b", t0+300, 3, 1000, 100)
			b.Summary.Host.Hostname = "other"
			c.spoil(b.Summary)
			_, _, err := rundir.Merge([]*rundir.RunDir{a, b}, true)
			if !errors.Is(err, schema.ErrInvalidSummary) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "b/summary.json") {
				t.Fatalf("Merge: %v, want ErrInvalidSummary naming b/summary.json and %q", err, c.want)
			}
		})
	}
	// Negative where it is honest: a validity margin, an error in the warmup.
	honest := paced("h", t0, 3, 1000, 100).Summary
	honest.Runs[0].ValidityMarginUS = &schema.Percentiles{P50: -20}
	honest.Runs[0].ErrorsByMaster = []schema.MasterErrors{{Master: "m1", Index: 1, Errors: 1, FirstS: -0.5}}
	if err := honest.Validate(); err != nil {
		t.Fatalf("a summary with a negative validity margin and warmup error time: %v", err)
	}
	// Merge's own output is valid input again.
	a, b := paced("a", t0, 3, 1000, 100), paced("b", t0+300, 3, 1000, 100)
	b.Summary.Host.Hostname = "other"
	m, _, err := rundir.Merge([]*rundir.RunDir{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("a merged summary does not validate: %v", err)
	}
}

// TestMergedLogIntervals: the merged interval log holds every input value
// once, in intervals that do not overlap, whose rates in the common window
// are the sum of the inputs' (what the report's throughput-over-time plots).
func TestMergedLogIntervals(t *testing.T) {
	t0 := int64(1_700_000_000_000)
	a, b := paced("a", t0, 6, 1000, 500), paced("b", t0+1400, 6, 1000, 500)
	b.Summary.Host.Hostname = "other"
	sum, logs, err := rundir.Merge([]*rundir.RunDir{a, b}, false)
	if err != nil {
		t.Fatal(err)
	}
	hs := logs[sum.Runs[0].Name][schema.OpCycle.String()]
	var total int64
	for i, h := range hs {
		total += h.TotalCount()
		if i > 0 && h.StartTimeMs() < hs[i-1].EndTimeMs() {
			t.Errorf("interval %d [%d, %d] overlaps the one before, ending %d", i, h.StartTimeMs()-t0, h.EndTimeMs()-t0, hs[i-1].EndTimeMs()-t0)
		}
		w := sum.Runs[0].Window
		if h.StartTimeMs() >= w.Start.UnixMilli() && h.EndTimeMs() <= w.End.UnixMilli() {
			if rate := float64(h.TotalCount()) / (float64(h.EndTimeMs()-h.StartTimeMs()) / 1e3); math.Abs(rate-1000) > 10 {
				t.Errorf("interval [%d, %d] in the window: %.0f/s, want 1000/s", h.StartTimeMs()-t0, h.EndTimeMs()-t0, rate)
			}
		}
	}
	if want := 2 * 6 * int64(500); total != want {
		t.Errorf("merged log holds %d values, want %d", total, want)
	}
}
