package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/internal/fixture"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// safetyPlotView is one plot of the page's safety section as drawn: its
// title, the vertices of each line, how many lines are dashed, and its
// markers, open ones apart.
type safetyPlotView struct {
	Title         string
	Lines         []int
	Dashed        int
	Markers, Open int
}

// safetySweepView is one sweep of the section: its heading and plots.
type safetySweepView struct {
	Heading string
	Plots   []safetyPlotView
}

// readSafetySection reads the safety section of a rendered page (it is
// drawn in Go, not by the page's script, so the HTML holds it whole).
func readSafetySection(t *testing.T, page string) []safetySweepView {
	t.Helper()
	start := strings.Index(page, `<div id="safetySection">`)
	if start < 0 {
		return nil
	}
	end := strings.Index(page[start:], `<div id="runsSection">`)
	if end < 0 {
		t.Fatal("safety section not followed by the runs section")
	}
	d := xml.NewDecoder(strings.NewReader(page[start : start+end]))
	d.Entity = xml.HTMLEntity
	var out []safetySweepView
	var in string // the element whose text is read: h3, or a plot's title
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("safety section: %v", err)
		}
		attr := func(e xml.StartElement, name string) string {
			for _, a := range e.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		plot := func() *safetyPlotView {
			s := &out[len(out)-1]
			return &s.Plots[len(s.Plots)-1]
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "h3":
				out = append(out, safetySweepView{})
				in = "h3"
			case "svg":
				if len(out) == 0 {
					t.Fatal("a plot before any sweep's heading")
				}
				out[len(out)-1].Plots = append(out[len(out)-1].Plots, safetyPlotView{})
			case "text":
				if p := plot(); p.Title == "" {
					in = "title"
				}
			case "polyline":
				p := plot()
				p.Lines = append(p.Lines, len(strings.Fields(attr(e, "points"))))
				if attr(e, "stroke-dasharray") != "" {
					p.Dashed++
				}
			case "circle":
				p := plot()
				p.Markers++
				if attr(e, "fill") == "white" {
					p.Open++
				}
			}
		case xml.CharData:
			switch in {
			case "h3":
				out[len(out)-1].Heading += string(e)
			case "title":
				plot().Title += string(e)
			}
		case xml.EndElement:
			if e.Name.Local == "h3" || e.Name.Local == "text" {
				in = ""
			}
		}
	}
}

// The plots of the safety fixture (fixture.SafetyJSON): a line per
// backend × fencing mode (redlock off and on, the fenced one dashed) with
// a vertex per ratio, a marker per point, open for the points without a
// violation.
var (
	pausePlot = safetyPlotView{Title: "lockbench safety: pause ÷ TTL", Lines: []int{2, 2}, Dashed: 1, Markers: 4, Open: 3}
	clockPlot = safetyPlotView{Title: "lockbench safety: clock-jump ÷ TTL", Lines: []int{2, 2}, Dashed: 1, Markers: 4, Open: 0}
)

// TestReportSafety: a safety sweep in the report is a plot per fault as
// its --html page draws it, headed by its source's number and path, alone,
// beside a run, or beside another sweep; its source carries its config
// and plan line.
func TestReportSafety(t *testing.T) {
	sw := fixture.SafetySweep(t)
	unfencedClock := &schema.SafetySweep{Config: sw.Config, Started: sw.Started}
	for _, p := range sw.Points {
		if p.Fault == "clock-jump" && p.Fencing == "off" {
			unfencedClock.Points = append(unfencedClock.Points, p)
		}
	}
	run, logs := fixture.Run(t, "redlock/goredis/fanout/uncontended", 1, 1)
	for _, c := range []struct {
		name  string
		add   func(r *Report)
		runs  int
		want  []safetySweepView
		plans []string // each sweep's source's plan line
	}{
		{"a sweep", func(r *Report) { r.AddSafety("safety.json", sw) }, 0,
			[]safetySweepView{{"[1] safety.json", []safetyPlotView{pausePlot, clockPlot}}}, []string{sw.Plan}},
		{"beside a run", func(r *Report) {
			r.AddSource("run/", fixture.Summary(run), map[string]record.RunLogs{run.Name: logs})
			r.AddSafety("safety.json", sw)
		}, 1, []safetySweepView{{"[2] safety.json", []safetyPlotView{pausePlot, clockPlot}}}, []string{sw.Plan}},
		{"two sweeps", func(r *Report) {
			r.AddSafety("a.json", sw)
			r.AddSafety("b.json", unfencedClock)
		}, 0, []safetySweepView{
			{"[1] a.json", []safetyPlotView{pausePlot, clockPlot}},
			{"[2] b.json", []safetyPlotView{{Title: clockPlot.Title, Lines: []int{2}, Markers: 2}}},
		}, []string{sw.Plan, ""}},
		{"no points", func(r *Report) { r.AddSafety("empty.json", &schema.SafetySweep{Config: sw.Config}) }, 0,
			[]safetySweepView{{"[1] empty.json", nil}}, []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := newFixtureReport(c.name)
			c.add(rep)
			var buf bytes.Buffer
			if err := rep.WriteHTML(&buf); err != nil {
				t.Fatal(err)
			}
			if got := readSafetySection(t, buf.String()); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("safety section\n got %+v\nwant %+v", got, c.want)
			}
			if len(rep.Runs) != c.runs {
				t.Errorf("%d runs, want %d", len(rep.Runs), c.runs)
			}
			var plans []string
			for _, s := range rep.Safety {
				src := rep.Sources[s.Source]
				if src.Kind != "safety" || string(src.Config) != string(sw.Config) {
					t.Errorf("source %d: kind %q, config %s; want the sweep's", s.Source+1, src.Kind, src.Config)
				}
				plans = append(plans, src.Plan)
			}
			if fmt.Sprint(plans) != fmt.Sprint(c.plans) {
				t.Errorf("plan lines %q, want %q", plans, c.plans)
			}
		})
	}
}

// A page without a safety sweep has no safety section.
func TestReportNoSafety(t *testing.T) {
	var buf bytes.Buffer
	if err := fixtureRunReport(t).WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "safetySection") {
		t.Error("a report of runs alone has a safety section")
	}
}
