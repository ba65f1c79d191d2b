package results

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// reportFixture is a report of two runs with interval logs, one without,
// and a sweep: every chart of the page has data.
func reportFixture(t *testing.T) *Report {
	t.Helper()
	rep := &Report{Title: "fixture </script><b>", Generated: time.Unix(1e9, 0).UTC()}
	for k, name := range []string{"redlock/goredis/fanout/uncontended", "redlock/rueidis/auto/uncontended"} {
		reg := NewRegistry(false)
		rec := reg.NewRecorder()
		hl := NewIntervalLog()
		for i := range 4 {
			for j := range 500 * (k + 1) {
				lat := int64(20_000 + 1000*j*(i+1))
				for _, op := range []Op{OpAcquire, OpAcquireTotal, OpRelease, OpCycle} {
					rec.Record(op, OK, 0, 0, lat)
				}
			}
			hl.Add(reg.Tick())
		}
		dir := t.TempDir()
		if _, err := hl.WriteDir(dir, name); err != nil {
			t.Fatal(err)
		}
		logs, err := ReadRunLogs(dir, name)
		if err != nil {
			t.Fatal(err)
		}
		r := Run{Name: name, Workers: 8}
		r.Fill(reg.Total())
		s := &Summary{Schema: Schema, Versions: map[string]string{"go": "go1"}, Config: []byte(`{"a":1}`), Runs: []Run{r}}
		rep.AddSource(name, s, map[string]RunLogs{name: logs})
	}
	plain := Run{Name: "etcd/-/-/uncontended", LatencyUS: map[string]Percentiles{"cycle": {Count: 10, P50: 100, P90: 200, P99: 300, P999: 400, Max: 500}}}
	rep.AddSource("plain.json", &Summary{Schema: Schema, Runs: []Run{plain}}, nil)
	rep.Sweeps = []Sweep{{Name: "redlock/goredis/fanout/uncontended", Op: "cycle", SLOUS: 2000, Stepped: "workers", Knee: 1,
		Steps: []SweepStep{{Workers: 1, CyclesPerS: 1000, P99US: 500, OK: true}, {Workers: 2, CyclesPerS: 1900, P99US: 900, OK: true},
			{Workers: 4, CyclesPerS: 2500, P99US: 4000, Reason: "p99 over SLO"}}}}
	return rep
}

func TestReportHTMLSelfContained(t *testing.T) {
	var buf bytes.Buffer
	if err := reportFixture(t).WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, bad := range []string{"http://", "https://", "<script src", "<link "} {
		if strings.Contains(strings.ReplaceAll(page, "http://www.w3.org/2000/svg", ""), bad) {
			t.Errorf("page refers outside itself: %q", bad)
		}
	}
	if strings.Contains(page, "<b>") {
		t.Error("title not escaped")
	}
}

// TestReportRendersInChromium opens the page in headless Chromium and
// checks the script ran to its end without an error and drew every chart.
func TestReportRendersInChromium(t *testing.T) {
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	var buf bytes.Buffer
	if err := reportFixture(t).WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+page)
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	body := regexp.MustCompile(`<body[^>]*>`).Find(dom)
	if !bytes.Contains(body, []byte(`data-rendered="ok"`)) || bytes.Contains(body, []byte("data-errors")) {
		errs := regexp.MustCompile(`<div id="errors"[^>]*>([^<]*)`).FindSubmatch(dom)
		t.Fatalf("page did not render cleanly: body %s, errors %q", body, errs)
	}
	// 2 bar charts, 4 op distributions, 2 time series, 1 sweep.
	if n := bytes.Count(dom, []byte("<svg")); n != 9 {
		t.Errorf("%d charts drawn, want 9", n)
	}
	// cycle: 3 runs (one from its summary alone); 3 more ops × 2; 2 series × 2; 1 sweep.
	if n := bytes.Count(dom, []byte("<polyline")); n != 3+3*2+2*2+1 {
		t.Errorf("%d lines drawn", n)
	}
}
