package output_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

func summary(t *testing.T) *schema.Summary {
	t.Helper()
	sum, err := schema.NewSummary(time.Now(), map[string]any{"workload": "uncontended"})
	if err != nil {
		t.Fatal(err)
	}
	sum.Runs = []schema.Run{{Name: "redlock/goredis/fanout/uncontended", Backend: "redlock", Client: "goredis", Mux: "fanout",
		Workload: "uncontended", Masters: 3, Workers: 4, DurationS: 1, Throughput: schema.Throughput{CyclesPerS: 10}, Counts: schema.Counts{Cycles: 10, Attempts: 10, Acquired: 10}}}
	return sum
}

// fakeLogs is one file per run, as an interval log would be.
type fakeLogs struct{}

func (fakeLogs) Files(run string) ([]outpath.NamedFile, error) {
	return []outpath.NamedFile{{Name: record.Slug(run) + ".cycle.hlog", Data: []byte("log")}}, nil
}

func ls(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// TestWriteStdout: what each format puts on stdout, and --json - leaves
// stdout pure JSON (no table).
func TestWriteStdout(t *testing.T) {
	for _, c := range []struct {
		name string
		w    output.Writer
		want func(string) bool
	}{
		{"table", output.Writer{}, func(s string) bool { return strings.Contains(s, "redlock/goredis/fanout") }},
		{"below the table", output.Writer{Below: func(w io.Writer) { io.WriteString(w, "KNEE\n") }},
			func(s string) bool { return strings.HasSuffix(s, "KNEE\n") }},
		{"own print", output.Writer{Print: func(w io.Writer, _ []schema.Run) error { _, err := io.WriteString(w, "OWN\n"); return err }},
			func(s string) bool { return s == "OWN\n" }},
		{"csv", output.Writer{Format: "csv"}, func(s string) bool { return strings.HasPrefix(s, "name,backend,") }},
		{"gobench", output.Writer{Format: "gobench"}, func(s string) bool { return strings.Contains(s, "\nBenchmark") }},
		{"json on stdout is pure", output.Writer{JSON: "-", Below: func(w io.Writer) { io.WriteString(w, "X") }},
			func(s string) bool { return json.Valid([]byte(s)) }},
		{"no table", output.Writer{NoTable: true}, func(s string) bool { return s == "" }},
	} {
		var out bytes.Buffer
		c.w.Stdout = &out
		if err := c.w.Write(summary(t), nil); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !c.want(out.String()) {
			t.Errorf("%s: stdout %q", c.name, out.String())
		}
	}
}

// TestWriteOutDir: a reused directory holds the new result only: the
// logs and sweep.json of the earlier result lockbench wrote there go, files
// it did not write stay, the extra files are written.
func TestWriteOutDir(t *testing.T) {
	dir := t.TempDir()
	old := summary(t)
	old.Runs[0].Name = "old-run"
	first := output.Writer{Stdout: io.Discard, Out: dir, Files: map[string]any{"sweep.json": []int{0}}}
	if err := first.Write(old, map[string]output.Logs{"old-run": fakeLogs{}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := output.Writer{Stdout: io.Discard, Out: dir, Files: map[string]any{"extra.json": []int{1}}}
	sum := summary(t)
	if err := w.Write(sum, map[string]output.Logs{sum.Runs[0].Name: fakeLogs{}}); err != nil {
		t.Fatal(err)
	}
	want := []string{outpath.LockName, outpath.ManifestName, "config.json", "extra.json", "notes.txt", record.Slug(sum.Runs[0].Name) + ".cycle.hlog", "summary.json"}
	sort.Strings(want)
	if got := ls(t, dir); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("dir holds %v, want %v", got, want)
	}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil || !strings.Contains(string(b), `"workload": "uncontended"`) {
		t.Errorf("config.json %q %v", b, err)
	}
}

// TestWriteErrorNamesDestination: a failed write says which destination.
func TestWriteErrorNamesDestination(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		w    output.Writer
		dest string
	}{
		{output.Writer{NoTable: true, JSON: filepath.Join(file, "x.json")}, "json"},
		{output.Writer{NoTable: true, Out: filepath.Join(file, "dir")}, "out"},
	} {
		err := c.w.Write(summary(t), nil)
		var e *output.Error
		if !errors.As(err, &e) || e.Dest != c.dest {
			t.Errorf("error %v, want destination %s", err, c.dest)
		}
	}
}
