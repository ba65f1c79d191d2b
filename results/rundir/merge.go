package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// RunDir is one --out directory read back: its summary and each run's logs.
type RunDir struct {
	Dir     string
	Path    string // the summary file read
	Summary *schema.Summary
	Logs    map[string]record.RunLogs // by run name; absent when the dir has none
}

// ReadRunDir reads DIR/summary.json and the interval logs of its runs.
func ReadRunDir(dir string) (*RunDir, error) {
	return readRunFile(filepath.Join(dir, "summary.json"))
}

// readRunFile reads exactly the summary at path and the interval logs of
// its runs beside it.
func readRunFile(path string) (*RunDir, error) {
	s, err := schema.ReadSummary(path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	d := &RunDir{Dir: dir, Path: path, Summary: s, Logs: map[string]record.RunLogs{}}
	for _, r := range s.Runs {
		l, err := record.ReadRunLogs(dir, record.LogName(r))
		if err != nil {
			return nil, err
		}
		if len(l) == 0 {
			continue
		}
		d.Logs[record.LogName(r)] = l
	}
	return d, nil
}

// ErrConfigMismatch: merge inputs were measured with different configs.
var ErrConfigMismatch = errors.New("results: runs have different configs")

// ErrNotConcurrent: merge inputs share no measured time.
var ErrNotConcurrent = errors.New("results: runs did not overlap in time")

// Merge combines runs measured at the same time (several machines, or
// parallel processes of one run): histograms are merged from the interval
// logs, never percentiles averaged; counts are summed; throughput is
// recomputed over the window every input was measuring, from the part of
// each input interval that lies in it (countOver). force merges different
// configs and runs that did not overlap (throughput is then total work
// over total time). An input that does not Validate is refused (an error
// wrapping ErrInvalidSummary).
func Merge(dirs []*RunDir, force bool) (*schema.Summary, map[string]record.RunLogs, error) {
	if len(dirs) < 2 {
		return nil, nil, fmt.Errorf("results: merge needs at least two runs")
	}
	for _, d := range dirs {
		if err := d.Summary.Validate(); err != nil {
			return nil, nil, fmt.Errorf("%s: %w: %w", d.label(), schema.ErrInvalidSummary, err)
		}
	}
	if err := checkDistinct(dirs); err != nil {
		return nil, nil, err
	}
	first := dirs[0].Summary
	for _, d := range dirs[1:] {
		if !SameConfig(first.Config, d.Summary.Config) && !force {
			return nil, nil, fmt.Errorf("%w: %s and %s (use --force to merge anyway)", ErrConfigMismatch, dirs[0].Dir, d.Dir)
		}
	}
	out := *first
	out.Runs = nil
	outLogs := map[string]record.RunLogs{}
	var names []string
	seen := map[string]bool{}
	for _, d := range dirs {
		out.Interrupted = out.Interrupted || d.Summary.Interrupted
		if d.Summary.Started.Before(out.Started) {
			out.Started = d.Summary.Started
		}
		for _, r := range d.Summary.Runs {
			if n := record.LogName(r); !seen[n] { // a round of --repeat merges with the same round
				seen[n] = true
				names = append(names, n)
			}
		}
	}
	for _, name := range names {
		var runs []schema.Run
		var logs []record.RunLogs
		var ids []string
		for _, d := range dirs {
			for _, r := range d.Summary.Runs {
				if record.LogName(r) != name {
					continue
				}
				l, ok := d.Logs[name]
				if !ok {
					return nil, nil, fmt.Errorf("%s: run %q has no .hlog files: percentiles cannot be merged without histograms", d.Dir, name)
				}
				runs, logs, ids = append(runs, r), append(logs, l), append(ids, runIDs(d.Summary, r)...)
			}
		}
		r, l, err := mergeRun(runs, logs, force)
		if err != nil {
			return nil, nil, fmt.Errorf("run %q: %w", name, err)
		}
		r.MergedIDs = ids
		out.Runs = append(out.Runs, r)
		outLogs[name] = l
	}
	return &out, outLogs, nil
}

func mergeRun(runs []schema.Run, logs []record.RunLogs, force bool) (schema.Run, record.RunLogs, error) {
	m := runs[0].WithoutExtra() // the inputs' own measures describe one input each
	m.Workers, m.Counts, m.ServiceUS, m.MergedFrom = 0, schema.Counts{}, nil, len(runs)
	var allocs, cycles float64
	var probes []float64
	// The common window: the latest first interval start to the earliest last end.
	winStart, winEnd := int64(math.MinInt64), int64(math.MaxInt64)
	var totalSecs float64
	for i, r := range runs {
		m.Workers += r.Workers
		m.Interrupted = m.Interrupted || r.Interrupted
		m.Counts = m.Counts.Plus(r.Counts)
		allocs += r.AllocsPerCycle * float64(r.Counts.Cycles)
		cycles += float64(r.Counts.Cycles)
		totalSecs += r.DurationS
		if r.MemoryProbeNS > 0 {
			probes = append(probes, r.MemoryProbeNS)
		}
		hs := logs[i][schema.OpCycle.String()]
		if len(hs) == 0 {
			continue
		}
		winStart = max(winStart, hs[0].StartTimeMs())
		winEnd = min(winEnd, hs[len(hs)-1].EndTimeMs())
	}
	if cycles > 0 {
		m.AllocsPerCycle = allocs / cycles
	}
	// Each generator probed its own machine: the merged run's state is
	// their median (0 when none probed).
	m.MemoryProbeNS = 0
	if len(probes) > 0 {
		m.MemoryProbeNS = stats.Median(probes)
	}
	m.SplitBrainRate, m.RetriesPerAcquire = m.Counts.Rates()
	merged := record.RunLogs{}
	m.LatencyUS = map[string]schema.Percentiles{}
	for _, op := range schema.Ops() {
		var all [][]*hdrhistogram.Histogram
		for _, l := range logs {
			if hs, ok := l[op.String()]; ok {
				all = append(all, hs)
			}
		}
		if len(all) == 0 {
			continue
		}
		merged[op.String()] = alignIntervals(all)
		m.LatencyUS[op.String()] = record.Summarize(merged.Total(op.String()))
	}
	if winEnd > winStart && winStart != math.MinInt64 {
		secs := float64(winEnd-winStart) / 1e3
		m.DurationS = secs
		var cycles, attempts float64
		for _, l := range logs {
			cycles += countOver(l[schema.OpCycle.String()], winStart, winEnd)
			attempts += countOver(l[schema.OpAcquire.String()], winStart, winEnd)
		}
		m.Throughput = schema.Throughput{CyclesPerS: cycles / secs, AttemptsPerS: attempts / secs}
		m.Window = &schema.Window{Start: time.UnixMilli(winStart).UTC(), End: time.UnixMilli(winEnd).UTC()}
		return m, merged, nil
	}
	if !force {
		return m, nil, ErrNotConcurrent
	}
	// Sequential runs, merged on request: the rate of the average run.
	m.DurationS = totalSecs / float64(len(runs))
	if totalSecs > 0 {
		m.Throughput = schema.Throughput{CyclesPerS: float64(m.Counts.Cycles) / totalSecs, AttemptsPerS: float64(m.Counts.Attempts) / totalSecs}
	}
	return m, merged, nil
}

// alignIntervals files the inputs' intervals under the second their
// midpoint lies in and merges each second's, so the merged log keeps one
// interval per second and its intervals never overlap. A merged interval
// spans what its inputs spanned, clipped to its second: inputs started
// 0.4 s apart give [1 s, 2 s] holding both runs' second, not [1 s, 2.4 s]
// (whose rate would be understated) nor two overlapping intervals.
func alignIntervals(inputs [][]*hdrhistogram.Histogram) []*hdrhistogram.Histogram {
	by := map[int64]*hdrhistogram.Histogram{}
	for _, hs := range inputs {
		for _, h := range hs {
			sec := (h.StartTimeMs() + h.EndTimeMs()) / 2 / 1000
			t, ok := by[sec]
			if !ok {
				t = record.NewHistogram()
				t.SetStartTimeMs(h.StartTimeMs())
				t.SetEndTimeMs(h.EndTimeMs())
				t.SetTag(h.Tag())
				by[sec] = t
			}
			t.Merge(h)
			t.SetStartTimeMs(max(sec*1000, min(t.StartTimeMs(), h.StartTimeMs())))
			t.SetEndTimeMs(min(sec*1000+1000, max(t.EndTimeMs(), h.EndTimeMs())))
		}
	}
	out := make([]*hdrhistogram.Histogram, 0, len(by))
	for _, h := range by {
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].StartTimeMs() < out[j].StartTimeMs() })
	return out
}

// countOver is how many of the values of intervals hs fell in [from, to]
// (ms): each interval's count in proportion to the part of its own span
// that lies there, its values being spread over its span as far as anyone
// can know. Intervals of different inputs start at different instants, so
// only their real spans, not the seconds they are filed under, say what a
// window holds.
func countOver(hs []*hdrhistogram.Histogram, from, to int64) float64 {
	var n float64
	for _, h := range hs {
		s, e := h.StartTimeMs(), h.EndTimeMs()
		lo, hi := max(s, from), min(e, to)
		switch {
		case e <= s: // no span: counted where it stands
			if s >= from && s <= to {
				n += float64(h.TotalCount())
			}
		case hi > lo:
			n += float64(h.TotalCount()) * float64(hi-lo) / float64(e-s)
		}
	}
	return n
}

// SameConfig compares configs ignoring the key prefix (parallel processes
// may each use their own).
func SameConfig(a, b json.RawMessage) bool {
	norm := func(raw json.RawMessage) string {
		var m map[string]any
		if json.Unmarshal(raw, &m) != nil {
			return string(raw)
		}
		if w, ok := m["workload"].(map[string]any); ok {
			delete(w, "prefix")
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	return norm(a) == norm(b)
}

// EncodeHlog is interval histograms (stamped in ms since the epoch) as a
// standard interval log.
func EncodeHlog(hs []*hdrhistogram.Histogram) ([]byte, error) {
	var buf bytes.Buffer
	w := hdrhistogram.NewHistogramLogWriter(&buf)
	var base int64
	if len(hs) > 0 {
		base = hs[0].StartTimeMs() / 1000 * 1000
	}
	w.SetBaseTime(base)
	for _, err := range []error{w.OutputLogFormatVersion(), w.OutputStartTime(base), w.OutputBaseTime(base), w.OutputLegend()} {
		if err != nil {
			return nil, err
		}
	}
	for _, h := range hs {
		if err := w.OutputIntervalHistogram(h); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
