package render

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/lockbench/lockbench/results/internal/fixture"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// pageView is what a person sees of a rendered report: each section
// heading, chart and table with whether it is visible (computed style, not
// DOM presence) and how big it is.
type pageView struct {
	Rendered string     `json:"rendered"`
	Errors   string     `json:"errors"`
	Sections []viewedEl `json:"sections"`
	Charts   []viewedEl `json:"charts"`
	Tables   []viewedEl `json:"tables"`
	Width    float64    `json:"width"`
	Overflow []viewedEl `json:"overflow"`
}

type viewedEl struct {
	Section string  `json:"section"`
	Title   string  `json:"title"`
	Visible bool    `json:"visible"`
	W       float64 `json:"w"`
	H       float64 `json:"h"`
	Marks   int     `json:"marks"` // lines, bars and points drawn (charts); rows (tables)
}

// viewJS reads the page as a person sees it: an element counts as visible
// when no ancestor hides it (display, visibility, opacity) and its box has
// a size. Each element is attributed to the section heading (h2) before it.
const viewJS = `(() => {
  const vis = e => {
    if (!e.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const heads = [...document.querySelectorAll("h2")];
  const section = e => { let s = ""; for (const h of heads) if (h.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) s = h.textContent; return s; };
  const box = (e, marks, title) => { const r = e.getBoundingClientRect(); return {section: section(e), title: title, visible: vis(e), w: r.width, h: r.height, marks: marks}; };
  // A mark counts when it covers some area or length: a line of one point,
  // a bar of no width, are not seen.
  const drawn = m => { const b = m.getBBox(); return b.width > 0 || b.height > 0; };
  const charts = [...document.querySelectorAll("svg")].map(s => box(s,
    [...s.querySelectorAll("polyline, circle, rect:not([fill=none])")].filter(drawn).length, (s.querySelector("text") || {}).textContent || ""));
  const tables = [...document.querySelectorAll("table")].map(t => box(t, t.rows.length, ""));
  const width = document.documentElement.clientWidth;
  return {
    rendered: document.body.getAttribute("data-rendered") || "",
    errors: document.getElementById("errors").textContent,
    sections: heads.map(h => box(h, 0, h.textContent)),
    charts: charts, tables: tables, width: width,
    overflow: [...document.querySelectorAll("svg, table")].filter(e => e.getBoundingClientRect().right > width + 1).map(e => box(e, 0, e.tagName)),
  };
})()`

// chromiumBin finds the browser the render test drives.
func chromiumBin(t *testing.T) string {
	t.Helper()
	if os.Getenv("LOCKBENCH_NO_BROWSER") == "1" {
		t.Skip("LOCKBENCH_NO_BROWSER=1: the report is not checked in a browser")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("chromium not found: apt-get install chromium or scripts/deps.sh browser (or set LOCKBENCH_NO_BROWSER=1 to skip this test)")
	return ""
}

// newBrowser starts one headless Chromium, fresh profile, for the test.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	bin := chromiumBin(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	return bctx
}

// viewReport renders rep to a file, opens it in a new tab and reads it.
func viewReport(t *testing.T, browser context.Context, rep *Report) pageView {
	t.Helper()
	tab := openReport(t, browser, rep, "body[data-rendered], body[data-errors]")
	v, err := chromedp.Run(tab, chromedp.Evaluate[pageView](viewJS))
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return v
}

// openReport renders rep to a file and opens it in a new tab, closed when
// the test ends, once an element matching ready is visible.
func openReport(t *testing.T, browser context.Context, rep *Report, ready string) context.Context {
	t.Helper()
	var buf bytes.Buffer
	if err := rep.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+page), chromedp.WaitVisible(ready)); err != nil {
		t.Fatalf("browser: %v", err)
	}
	return tab
}

// expectedView is what the page must show for rep's data: per section, the
// charts and tables it has data for.
func expectedView(rep *Report) (charts, tables map[string]int) {
	charts, tables = map[string]int{}, map[string]int{}
	if len(rep.Sweeps) > 0 {
		charts["Capacity sweep"], tables["Capacity sweep"] = 1, 1
		for _, s := range rep.Sweeps {
			if sw, ok := s.(schema.Sweep); ok && sw.USL != nil {
				charts["Capacity sweep"] = 2 // and the scaling curve
				break
			}
		}
	}
	if len(rep.Runs) > 0 {
		charts["Strategy comparison"], tables["Runs"] = 2, 1
	}
	for _, op := range schema.Ops() {
		for _, r := range rep.Runs {
			if len(r.Dist[op.String()]) > 0 {
				charts["Latency by percentile"]++
				break
			}
		}
	}
	for _, r := range rep.Runs {
		if len(r.Series) > 0 {
			charts["Over time"] = 2
			break
		}
	}
	for _, r := range rep.Runs {
		if f, ok := r.Extra["faults"].(map[string]any); ok && f["timeline"] != nil {
			charts["Over time"]++ // acquisitions per interval, with the fault events
			break
		}
	}
	for _, r := range rep.Runs {
		if r.Extra["scenario"] != nil {
			tables["Scenarios"] = 1
			break
		}
	}
	for _, s := range rep.Safety {
		charts["Safety"] += len(s.Plots)
	}
	for _, s := range rep.Sources {
		if len(s.Versions) > 0 {
			tables["Config and versions"]++
		}
	}
	return charts, tables
}

// TestReportVisibleInBrowser opens the report of every kind of output in
// headless Chromium and checks what a person would see: the script ran
// clean, every section with data is shown, and every chart and table is
// visible, has a size, lies within the window's width and (charts) has
// marks drawn.
func TestReportVisibleInBrowser(t *testing.T) {
	browser := newBrowser(t)
	for _, fx := range reportFixtures {
		t.Run(fx.kind, func(t *testing.T) {
			rep := fx.make(t)
			v := viewReport(t, browser, rep)
			if v.Rendered != "ok" || v.Errors != "" {
				t.Fatalf("page did not render cleanly: rendered %q, errors %q", v.Rendered, v.Errors)
			}
			wantCharts, wantTables := expectedView(rep)
			for _, s := range v.Sections {
				_, charted := wantCharts[s.Title]
				_, tabled := wantTables[s.Title]
				// A section with data shows; one without may show a note
				// (no interval logs), but an empty sweep heading is noise.
				if (charted || tabled) && !s.Visible {
					t.Errorf("section %q hidden (%.0f×%.0f)", s.Title, s.W, s.H)
				}
				if s.Title == "Capacity sweep" && s.Visible != (len(rep.Sweeps) > 0) {
					t.Errorf("section %q visible=%v with %d sweeps", s.Title, s.Visible, len(rep.Sweeps))
				}
			}
			check := func(what string, els []viewedEl, want map[string]int, minMarks int) {
				got := map[string]int{}
				for _, e := range els {
					if !e.Visible || e.W <= 0 || e.H <= 0 || e.Marks < minMarks {
						t.Errorf("%s %q in %q not seen: visible=%v %.0f×%.0f, %d marks", what, e.Title, e.Section, e.Visible, e.W, e.H, e.Marks)
						continue
					}
					got[e.Section]++
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("visible %ss per section %v, want %v", what, got, want)
				}
			}
			check("chart", v.Charts, wantCharts, 1)
			check("table", v.Tables, wantTables, 1)
			for _, e := range v.Overflow {
				t.Errorf("%s in %q overflows the %.0f px window: %.0f px wide", e.Title, e.Section, v.Width, e.W)
			}
		})
	}
}

// seriesStyles reads the stroke colour and dash of every line of the first
// chart, as the browser computed them.
const seriesStylesJS = `[...document.querySelector("#dist svg").querySelectorAll("polyline")].map(p =>
  ({stroke: getComputedStyle(p).stroke, dash: p.getAttribute("stroke-dasharray") || "none"}))`

// TestReportSeriesDistinct: compare's default matrix (2 clients × 4
// strategies × 2 workloads) draws 16 lines no two of which look alike: each
// has its own colour and dash, and two lines of one dash differ clearly in
// colour.
func TestReportSeriesDistinct(t *testing.T) {
	browser := newBrowser(t)
	rep := newFixtureReport("compare")
	var runs []schema.Run
	logs := map[string]record.RunLogs{}
	for _, w := range []string{"uncontended", "contended"} {
		for _, mux := range []string{"sequential", "fanout", "pipeline", "auto"} {
			for _, client := range []string{"goredis", "rueidis"} {
				name := "redlock/" + client + "/" + mux + "/" + w
				r, l := fixture.Run(t, name, 1, 1)
				runs, logs[name] = append(runs, r), l
			}
		}
	}
	rep.AddSource("compare/", fixture.Summary(runs...), logs)
	viewReport(t, browser, rep) // renders cleanly
	tab := openReport(t, browser, rep, "body[data-rendered]")
	type style struct{ Stroke, Dash string }
	lines, err := chromedp.Run(tab, chromedp.Evaluate[[]style](seriesStylesJS))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != len(runs) {
		t.Fatalf("%d lines drawn for %d runs", len(lines), len(runs))
	}
	rgb := func(s string) (c [3]float64) {
		if _, err := fmt.Sscanf(s, "rgb(%g, %g, %g)", &c[0], &c[1], &c[2]); err != nil {
			t.Fatalf("stroke %q: %v", s, err)
		}
		return c
	}
	for i, a := range lines {
		for j, b := range lines[:i] {
			if a == b {
				t.Errorf("%s and %s drawn alike: %+v", runs[i].Name, runs[j].Name, a)
			}
			ca, cb := rgb(a.Stroke), rgb(b.Stroke)
			d := math.Sqrt((ca[0]-cb[0])*(ca[0]-cb[0]) + (ca[1]-cb[1])*(ca[1]-cb[1]) + (ca[2]-cb[2])*(ca[2]-cb[2]))
			if a.Dash == b.Dash && d < 60 {
				t.Errorf("%s and %s: same dash, colours %s and %s only %.0f apart", runs[i].Name, runs[j].Name, a.Stroke, b.Stroke, d)
			}
		}
	}
}
