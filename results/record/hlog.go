package record

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/schema"
)

// IntervalLog keeps one HdrHistogram interval log (.hlog, the standard
// format of HdrHistogram's HistogramLogWriter) per op for one run, and in an
// open loop a second one per op of the service time (from the actual start:
// compare the two to see what queueing behind a stall costs). Add is called
// from the once-a-second tick with the merged interval, never per sample;
// the logs stay in memory until WriteDir so an interrupted or failed run
// leaves no half-written file behind.
type IntervalLog struct {
	base    time.Time
	service bool                           // the run keeps service-time histograms
	bufs    [2][schema.NumOps]bytes.Buffer // [latency, service]
	writers [2][schema.NumOps]*hdrhistogram.HistogramLogWriter
	counts  [2][schema.NumOps]int64
	n       int
	err     error
}

const (
	kindLatency = iota
	kindService
)

var kindTag = [2]string{"", ".service"}

// NewIntervalLog makes empty logs. They start at the first interval added
// (the beginning of the measured window); interval timestamps are relative
// to it, as HdrHistogram's own tools write them.
func NewIntervalLog() *IntervalLog { return &IntervalLog{} }

func (l *IntervalLog) start(iv *Interval) {
	l.base = iv.Start.Truncate(time.Second)
	l.service = iv.Service(0) != nil
	ms := l.base.UnixMilli()
	what := [2]string{"latency in ns from the intended start", "service time in ns from the actual start"}
	for kind := range l.writers {
		if kind == kindService && !l.service {
			continue
		}
		for op := range l.writers[kind] {
			w := hdrhistogram.NewHistogramLogWriter(&l.bufs[kind][op])
			w.SetBaseTime(ms)
			l.keep(w.OutputComment("[lockbench interval log: op " + schema.Op(op).String() + ", " + what[kind] + "]"))
			l.keep(w.OutputLogFormatVersion())
			l.keep(w.OutputStartTime(ms))
			l.keep(w.OutputBaseTime(ms))
			l.keep(w.OutputLegend())
			l.writers[kind][op] = w
		}
	}
}

func (l *IntervalLog) keep(err error) {
	if err != nil && l.err == nil {
		l.err = err
	}
}

// Add logs one merged interval for every op. The interval's histograms get
// their start/end stamps and tag set (they belong to the tick).
func (l *IntervalLog) Add(iv *Interval) {
	if l.n == 0 {
		l.start(iv)
	}
	for kind := range l.writers {
		for op, w := range l.writers[kind] {
			if w == nil {
				continue
			}
			h := iv.Latency(schema.Op(op))
			if kind == kindService {
				h = iv.Service(schema.Op(op))
			}
			h.SetStartTimeMs(iv.Start.UnixMilli())
			h.SetEndTimeMs(iv.End.UnixMilli())
			h.SetTag(schema.Op(op).String() + kindTag[kind])
			l.counts[kind][op] += h.TotalCount()
			l.keep(w.OutputIntervalHistogram(h))
		}
	}
	l.n++
}

// Intervals is how many intervals were logged.
func (l *IntervalLog) Intervals() int { return l.n }

// hlogName is the file an op's interval log of run is written to.
func hlogName(run string, op schema.Op) string {
	return Slug(run) + "." + op.String() + ".hlog"
}

// Slug makes a run name a file name: backend/client/mux/workload becomes
// backend-client-mux-workload.
func Slug(run string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '-'
	}, run)
}

// Files are the interval log files of run: <run>.<op>.hlog (and, open
// loop, <run>.<op>.service.hlog) for every op that recorded anything.
func (l *IntervalLog) Files(run string) ([]outpath.NamedFile, error) {
	if l.err != nil {
		return nil, fmt.Errorf("results: interval log: %w", l.err)
	}
	if l.n == 0 {
		return nil, nil // nothing was measured
	}
	var files []outpath.NamedFile
	for kind := range l.bufs {
		for op := range l.bufs[kind] {
			if l.writers[kind][op] == nil || l.counts[kind][op] == 0 && schema.Op(op) == schema.OpExtend {
				continue // runs that never extend get no empty extend log
			}
			name := hlogName(run, schema.Op(op))
			if kind == kindService {
				name = strings.TrimSuffix(name, ".hlog") + ".service.hlog"
			}
			files = append(files, outpath.NamedFile{Name: name, Data: l.bufs[kind][op].Bytes()})
		}
	}
	return files, nil
}

// WriteDir writes Files into dir, each atomically, and returns their names.
func (l *IntervalLog) WriteDir(dir, run string) ([]string, error) {
	files, err := l.Files(run)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, f := range files {
		if err := schema.WriteFileAtomic(filepath.Join(dir, f.Name), f.Data); err != nil {
			return names, err
		}
		names = append(names, f.Name)
	}
	return names, nil
}

// readHlog reads every interval histogram of an .hlog file, with absolute
// start/end stamps (ms since the epoch) as hdrhistogram-go's reader sets them.
func readHlog(path string) ([]*hdrhistogram.Histogram, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := hdrhistogram.NewHistogramLogReader(f)
	var out []*hdrhistogram.Histogram
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			return out, fmt.Errorf("%s: %w", path, err)
		}
		if h == nil {
			return out, nil
		}
		out = append(out, h)
	}
}

// LogName is the name a run's interval logs are filed under: its name, and
// its round for a round of compare --repeat (whose rounds share the name),
// so every round keeps its own .hlog files.
func LogName(r schema.Run) string {
	if r.Repeat > 0 {
		return fmt.Sprintf("%s round %d", r.Name, r.Repeat)
	}
	return r.Name
}

// RunLogs are one run's interval logs read back, per op name.
type RunLogs map[string][]*hdrhistogram.Histogram

// ReadRunLogs reads the .hlog files of run from dir. Ops without a file are
// absent: a run with no file at all has empty logs.
func ReadRunLogs(dir, run string) (RunLogs, error) {
	logs := RunLogs{}
	for _, op := range schema.Ops() {
		hs, err := readHlog(filepath.Join(dir, hlogName(run, op)))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		logs[op.String()] = hs
	}
	return logs, nil
}

// Total merges an op's intervals into one histogram (nil if absent).
func (l RunLogs) Total(op string) *hdrhistogram.Histogram {
	hs, ok := l[op]
	if !ok {
		return nil
	}
	t := NewHistogram()
	for _, h := range hs {
		t.Merge(h)
	}
	return t
}
