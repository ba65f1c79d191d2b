package generators

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/generators/crossref"
	"github.com/lockbench/lockbench/workloads/lab"
)

// propShare is one generator's measurement as the property test makes it: its
// interval histograms per op and the summary's counts.
type propShare struct {
	logs   record.RunLogs
	counts map[string]int64 // samples per op
}

// randomShare is a generator's interval logs: n one-second intervals from
// startMs, each op's interval empty one time in five, else up to 300
// samples drawn around a median of its own (scale: 1 µs … 1 s).
func randomShare(rnd *rand.Rand, startMs int64, n int, all map[string]*hdrhistogram.Histogram) propShare {
	s := propShare{logs: record.RunLogs{}, counts: map[string]int64{}}
	for _, op := range []schema.Op{schema.OpCycle, schema.OpAcquire} {
		scale := math.Pow(10, 3+6*rnd.Float64())
		spread := 0.1 + 2*rnd.Float64()
		for i := range n {
			h := record.NewHistogram()
			h.SetStartTimeMs(startMs + int64(i)*1000)
			h.SetEndTimeMs(startMs + int64(i+1)*1000)
			k := 0
			if rnd.IntN(5) > 0 {
				k = rnd.IntN(300)
			}
			for range k {
				v := int64(scale * math.Exp(rnd.NormFloat64()*spread))
				v = min(max(v, record.LowestNS), record.HighestNS)
				_ = h.RecordValue(v)
				_ = all[op.String()].RecordValue(v)
			}
			s.counts[op.String()] += int64(k)
			s.logs[op.String()] = append(s.logs[op.String()], h)
		}
	}
	return s
}

// result is s as generator i publishes it: its output directory's files
// (summary.json and .hlog files, written as --out writes them).
func (s propShare) result(t *testing.T, i int, started time.Time) Result {
	return s.resultWith(t, i, started, nil)
}

// resultWith is result, its run costing cost.
func (s propShare) resultWith(t *testing.T, i int, started time.Time, cost *schema.Cost) Result {
	t.Helper()
	cfg := lab.DefaultConfig()
	sum, err := schema.NewSummary(started, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cycles, attempts := s.counts[schema.OpCycle.String()], s.counts[schema.OpAcquire.String()]
	run := schema.Run{Name: cfg.Name(), Workers: 2, DurationS: float64(len(s.logs[schema.OpCycle.String()])),
		Counts: schema.Counts{Attempts: attempts, Acquired: attempts, Cycles: cycles}, Cost: cost}
	sum.Runs = []schema.Run{run}
	dir := filepath.Join(t.TempDir(), "out")
	if err := (output.Writer{Out: dir, NoTable: true}).Write(sum, map[string]output.Logs{record.LogName(run): output.MergedLogs(s.logs)}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return Result{Generator: i, Info: Info{Generator: i, Cycles: cycles}, Files: files, Grants: emptyGrants(t, i)}
}

// TestMergeResultsProperty: random sets of per-generator interval logs
// (2–6 generators, medians from 1 µs to 1 s, empty intervals, windows
// aligned or started up to 0.9 s apart) merged by the path generator 0
// takes (mergeResults: the published output directories read back and
// merged as lockbench merge does) give the percentiles of one histogram of
// every sample to three significant figures, counts that add up exactly
// and, when the windows are aligned (what the start barrier gives), the
// sum of the generators' rates.
func TestMergeResultsProperty(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads back output directories")
	}
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for seed := range uint64(50) { // each seed writes and reads back 2–6 output directories
		rnd := rand.New(rand.NewPCG(seed, 29))
		gens, n, aligned := 2+rnd.IntN(5), 2+rnd.IntN(7), seed%2 == 0
		all := map[string]*hdrhistogram.Histogram{schema.OpCycle.String(): record.NewHistogram(), schema.OpAcquire.String(): record.NewHistogram()}
		var res []Result
		want := map[string]int64{}
		var rate float64
		for i := range gens {
			start := t0.UnixMilli()
			if !aligned {
				start += rnd.Int64N(900)
			}
			s := randomShare(rnd, start, n, all)
			for op, k := range s.counts {
				want[op] += k
			}
			rate += float64(s.counts[schema.OpCycle.String()]) / float64(n)
			res = append(res, s.result(t, i, t0.Add(time.Duration(i))))
		}
		sum, _, _, err := mergeResults(res, gens)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		r := sum.Runs[0]
		name := "seed " + strconv.FormatUint(seed, 10) + ", " + strconv.Itoa(gens) + " generators"
		if r.Counts.Cycles != want[schema.OpCycle.String()] || r.Counts.Attempts != want[schema.OpAcquire.String()] {
			t.Errorf("%s: merged %d cycles, %d attempts; the generators' add up to %d, %d", name, r.Counts.Cycles, r.Counts.Attempts,
				want[schema.OpCycle.String()], want[schema.OpAcquire.String()])
		}
		for op, h := range all {
			got, one := r.LatencyUS[op], record.Summarize(h)
			if got.Count != want[op] {
				t.Errorf("%s: merged %s histogram holds %d samples, want %d", name, op, got.Count, want[op])
			}
			for _, q := range []struct {
				name      string
				got, want float64
			}{{"p50", got.P50, one.P50}, {"p90", got.P90, one.P90}, {"p99", got.P99, one.P99}, {"p999", got.P999, one.P999}, {"max", got.Max, one.Max}} {
				if sig3(q.got) != sig3(q.want) {
					t.Errorf("%s: merged %s %s %v µs, one histogram's %v µs", name, op, q.name, q.got, q.want)
				}
			}
		}
		if aligned && math.Abs(r.Throughput.CyclesPerS-rate) > 1e-9*max(rate, 1) {
			t.Errorf("%s, aligned windows: merged %v cycles/s, the generators' rates add up to %v", name, r.Throughput.CyclesPerS, rate)
		}
	}
}

// TestMergedServerCPUPerCycleOfTheRun: the masters' CPU over the common
// window is every generator's load, so per cycle it is divided by the
// run's cycles, not generator 0's alone.
func TestMergedServerCPUPerCycleOfTheRun(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	all := map[string]*hdrhistogram.Histogram{schema.OpCycle.String(): record.NewHistogram(), schema.OpAcquire.String(): record.NewHistogram()}
	var res []Result
	var cycles, first int64
	for i := range 3 {
		s := randomShare(rnd, t0.UnixMilli(), 3, all)
		c := s.counts[schema.OpCycle.String()]
		if i == 0 {
			first = c
		}
		cycles += c
		// Generator 0 measured the masters' CPU: 600 ms over the window.
		res = append(res, s.resultWith(t, i, t0.Add(time.Duration(i)), &schema.Cost{ServerCPUUSPerCycle: 600e3 / float64(max(c, 1))}))
	}
	sum, _, _, err := mergeResults(res, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sum.Runs[0].Cost.ServerCPUUSPerCycle, 600e3/float64(cycles); first == 0 || math.Abs(got-want) > 1e-9*want {
		t.Errorf("merged server CPU %v µs per cycle, want %v (600 ms over the run's %d cycles)", got, want, cycles)
	}
}

// emptyGrants is generator i's grant log with no grant in it.
func emptyGrants(t *testing.T, i int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := crossref.OnMasters(i, nil, crossref.Mapping{}).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
