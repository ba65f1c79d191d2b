package render

import (
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
	"math"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

//go:embed report.html.tmpl
var reportHTML string

var reportTmpl = template.Must(template.New("report").Parse(reportHTML))

// Report is what the HTML page shows. It is embedded in the page as JSON
// and drawn by inline JS as SVG, but for the safety plots, which are
// drawn here: no network is needed to view it.
type Report struct {
	Title     string        `json:"title"`
	Generated time.Time     `json:"generated"`
	Sources   []reportInput `json:"sources"`
	Runs      []reportRun   `json:"runs"`
	// Sweeps are capacity sweeps (results/schema.Sweep values, as
	// sweep.json holds them): the page draws them; results does not read them.
	Sweeps []any `json:"sweeps,omitempty"`
	// Safety are safety sweeps (AddSafety), each one of Sources.
	Safety []reportSafety `json:"-"`
}

// reportInput is one summary or safety sweep the report was made from.
type reportInput struct {
	Path string `json:"path"`
	// Kind is "safety" for a safety sweep, whose Plan is its plan line;
	// "" for a summary.
	Kind        string            `json:"kind,omitempty"`
	Plan        string            `json:"plan,omitempty"`
	Started     time.Time         `json:"started"`
	Interrupted bool              `json:"interrupted"`
	Host        schema.Host       `json:"host"`
	Versions    map[string]string `json:"versions"`
	Config      json.RawMessage   `json:"config"`
}

// reportRun is one run with its distributions and time series.
type reportRun struct {
	schema.Run
	Source int `json:"source"`
	// Dist per op: percentile-distribution points, from the interval logs
	// when there are some, else from the summary's few percentiles.
	Dist map[string][]distPoint `json:"dist"`
	// Series: one point per logged interval (absent without logs).
	Series []seriesPoint `json:"series,omitempty"`
}

// MarshalJSON writes the run's fields (Run's own MarshalJSON, which would
// otherwise be promoted and drop the rest) with source, dist and series.
func (r reportRun) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.Run)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	add := func(key string, v any) error {
		raw, err := json.Marshal(v)
		m[key] = raw
		return err
	}
	if err := add("source", r.Source); err != nil {
		return nil, err
	}
	if err := add("dist", r.Dist); err != nil {
		return nil, err
	}
	if r.Series != nil {
		if err := add("series", r.Series); err != nil {
			return nil, err
		}
	}
	return json.Marshal(m)
}

// distPoint is the latency (µs) at percentile P.
type distPoint struct {
	P  float64 `json:"p"`
	US float64 `json:"us"`
}

// seriesPoint is one interval from T0 to T (seconds since the run's first
// interval started): cycles/s, and p99 of cycle and acquire in µs. The page
// draws it as a step over the interval, so a run of one interval still
// shows a line.
type seriesPoint struct {
	T0         float64 `json:"t0"`
	T          float64 `json:"t"`
	CyclesPerS float64 `json:"cycles_per_s"`
	CycleP99   float64 `json:"cycle_p99_us"`
	AcquireP99 float64 `json:"acquire_p99_us"`
}

// AddSource adds a summary and (logs, may be nil) its runs' interval logs.
func (r *Report) AddSource(path string, s *schema.Summary, logs map[string]record.RunLogs) {
	r.Sources = append(r.Sources, reportInput{Path: path, Started: s.Started, Interrupted: s.Interrupted,
		Host: s.Host, Versions: s.Versions, Config: s.Config})
	for _, run := range s.Runs {
		rr := reportRun{Run: run, Source: len(r.Sources) - 1, Dist: map[string][]distPoint{}}
		l := logs[record.LogName(run)]
		rr.Run.Name = record.LogName(run) // a round of --repeat is labelled with its round
		for op, p := range run.LatencyUS {
			if h := l.Total(op); h != nil && h.TotalCount() > 0 {
				rr.Dist[op] = distribution(h)
			} else if p.Count > 0 {
				rr.Dist[op] = []distPoint{{50, p.P50}, {90, p.P90}, {99, p.P99}, {99.9, p.P999}, {100, p.Max}}
			}
		}
		rr.Series = series(l)
		r.Runs = append(r.Runs, rr)
	}
}

// distribution samples h on the log 1/(1−p) axis HdrHistogram plots use:
// ten points per decade up to the resolution the count supports.
func distribution(h *hdrhistogram.Histogram) []distPoint {
	top := math.Log10(float64(h.TotalCount()))
	var out []distPoint
	for x := 0.0; x < top; x += 0.1 {
		p := 100 * (1 - math.Pow(10, -x))
		out = append(out, distPoint{P: p, US: float64(h.ValueAtPercentile(p)) / 1e3})
	}
	return append(out, distPoint{P: 100, US: float64(h.Max()) / 1e3})
}

func series(l record.RunLogs) []seriesPoint {
	cyc, acq := l["cycle"], l["acquire"]
	if len(cyc) == 0 {
		return nil
	}
	t0 := cyc[0].StartTimeMs()
	out := make([]seriesPoint, 0, len(cyc))
	for i, h := range cyc {
		secs := float64(h.EndTimeMs()-h.StartTimeMs()) / 1e3
		p := seriesPoint{T0: float64(h.StartTimeMs()-t0) / 1e3, T: float64(h.EndTimeMs()-t0) / 1e3,
			CycleP99: float64(h.ValueAtPercentile(99)) / 1e3}
		if secs > 0 {
			p.CyclesPerS = float64(h.TotalCount()) / secs
		}
		if i < len(acq) {
			p.AcquireP99 = float64(acq[i].ValueAtPercentile(99)) / 1e3
		}
		out = append(out, p)
	}
	return out
}

// WriteHTML renders the self-contained page.
func (r *Report) WriteHTML(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return reportTmpl.Execute(w, struct {
		Title         string
		Data          string
		Safety        []safetySection
		SafetyCaption string
	}{r.Title, string(b), r.safetySections(), SafetyCaption})
}
