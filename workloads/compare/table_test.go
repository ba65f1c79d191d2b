package compare

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
)

// TestTable: the writer prints the "vs seq" column and the compare's
// summary under the table.
func TestTable(t *testing.T) {
	ratio := 2.5
	runs := []schema.Run{{Name: "redlock/goredis/fanout/uncontended", Masters: 5, VsSequential: &ratio,
		Counts: schema.Counts{Cycles: 10, Attempts: 10, Acquired: 10}}}
	var b strings.Builder
	w := output.Writer{Stdout: &b}
	Table(&w, runs, map[int]float64{5: 1000})
	if err := w.Write(&schema.Summary{Runs: runs}, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vs seq", "2.5", "ceiling (redis-benchmark -P 16, 5 masters): 1000 cycles/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}

// TestResultWrite: a compare's result is written through the writer with
// its table (and, of one round, the word that it ranks nothing with
// confidence), its files, and the rankings by round trip on stdout, except
// where stdout holds benchmark lines or the JSON.
func TestResultWrite(t *testing.T) {
	run := func(mux string, rttUS, cps float64) schema.Run {
		return schema.Run{Name: "redlock/rueidis/" + mux + "/uncontended", Backend: "redlock", Client: "rueidis", Mux: mux,
			Workload: "uncontended", AddedRTTUS: rttUS, Throughput: schema.Throughput{CyclesPerS: cps},
			Counts: schema.Counts{Cycles: 10, Attempts: 10, Acquired: 10}}
	}
	res := Result{Config: Config{RTTs: distances{{}, {RTT: time.Millisecond}}}}
	sum := &schema.Summary{Runs: []schema.Run{run("sequential", 0, 300), run("fanout", 0, 200), run("sequential", 1000, 50), run("fanout", 1000, 150)}}
	dir := t.TempDir()
	for _, c := range []struct {
		name     string
		w        output.Writer
		rankings bool
	}{
		{"table", output.Writer{}, true},
		{"csv", output.Writer{Format: "csv"}, false},
		{"gobench", output.Writer{Format: "gobench"}, false},
		{"json on stdout", output.Writer{JSON: "-"}, false},
		{"json file and out", output.Writer{JSON: filepath.Join(dir, "c.json"), Out: filepath.Join(dir, "out")}, true},
	} {
		var b strings.Builder
		c.w.Stdout = &b
		if err := res.Write(c.w, sum); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := strings.Contains(b.String(), "ranking by added round trip"); got != c.rankings {
			t.Errorf("%s: rankings %v, want %v:\n%s", c.name, got, c.rankings, b.String())
		}
		if c.name == "table" && !strings.Contains(b.String(), "answers: one round per cell, so no ranking with confidence") {
			t.Errorf("table: no word on answers of one round:\n%s", b.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "summary.json")); err != nil {
		t.Error(err)
	}
	err := res.Write(output.Writer{Stdout: io.Discard, JSON: filepath.Join(dir, "none", "c.json")}, sum)
	var e *output.Error
	if !errors.As(err, &e) || e.Dest != "json" {
		t.Errorf("unwritable JSON: %v", err)
	}
}
