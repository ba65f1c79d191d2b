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

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
)

func summary(t *testing.T) *results.Summary {
	t.Helper()
	sum, err := results.NewSummary(time.Now(), map[string]any{"workload": "uncontended"})
	if err != nil {
		t.Fatal(err)
	}
	sum.Runs = []results.Run{{Name: "redlock/goredis/fanout/uncontended", Backend: "redlock", Client: "goredis", Mux: "fanout",
		Workload: "uncontended", Masters: 3, Workers: 4, DurationS: 1, Throughput: results.Throughput{CyclesPerS: 10}, Counts: results.Counts{Cycles: 10, Attempts: 10, Acquired: 10}}}
	return sum
}

// fakeLogs writes one file per run, as an interval log would.
type fakeLogs struct{}

func (fakeLogs) WriteDir(dir, run string) ([]string, error) {
	name := results.Slug(run) + ".cycle.hlog"
	return []string{name}, os.WriteFile(filepath.Join(dir, name), []byte("log"), 0o644)
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
		{"own print", output.Writer{Print: func(w io.Writer, _ []results.Run) error { _, err := io.WriteString(w, "OWN\n"); return err }},
			func(s string) bool { return s == "OWN\n" }},
		{"csv", output.Writer{Format: output.CSV}, func(s string) bool { return strings.HasPrefix(s, "name,backend,") }},
		{"gobench", output.Writer{Format: output.GoBench}, func(s string) bool { return strings.Contains(s, "\nBenchmark") }},
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

// TestWriteOutDir: a reused directory holds the new result only: stale
// logs, an old sweep.json and temp files of a killed writer go, files
// lockbench does not write stay, the extra files are written.
func TestWriteOutDir(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"old-run.cycle.hlog", "sweep.json", ".summary.json.123", ".x.hlog.456", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w := output.Writer{Stdout: io.Discard, Out: dir, Files: map[string]any{"extra.json": []int{1}}}
	sum := summary(t)
	if err := w.Write(sum, map[string]output.Logs{sum.Runs[0].Name: fakeLogs{}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"config.json", "extra.json", "notes.txt", results.Slug(sum.Runs[0].Name) + ".cycle.hlog", "summary.json"}
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

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		check func(string) error
		path  string
		err   string // "" ok
	}{
		{"new file", output.CheckFile, filepath.Join(dir, "new.json"), ""},
		{"existing file", output.CheckFile, file, ""},
		{"stdout", output.CheckFile, "-", ""},
		{"empty", output.CheckFile, "", "empty path"},
		{"a directory", output.CheckFile, dir, "is a directory"},
		{"trailing slash", output.CheckFile, dir + "/x/", "names a directory"},
		{"missing parent", output.CheckFile, filepath.Join(dir, "no", "x.json"), "does not exist"},
		{"parent is a file", output.CheckFile, filepath.Join(file, "x.json"), "is not a directory"},
		{"existing dir", output.CheckDir, dir, ""},
		{"new dir", output.CheckDir, filepath.Join(dir, "new"), ""},
		{"dir is a file", output.CheckDir, file, "not a directory"},
	} {
		err := c.check(c.path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
	if got := ls(t, dir); strings.Join(got, " ") != "f" {
		t.Errorf("checks left %v behind", got)
	}
}

// TestOutside: an output directory that is an input's directory or lies
// inside it (also through a symlink) is refused; a sibling is not.
func TestOutside(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		out  string
		want string // "" accepted
	}{
		{in, "is the directory of input"},
		{filepath.Join(in, "sub", "new"), "is inside the directory"},
		{filepath.Join(link, "new"), "is inside the directory"},
		{link, "is the directory of input"},
		{filepath.Join(root, "out"), ""},
		{filepath.Join(root, "in2"), ""},
	} {
		err := output.Outside(c.out, in)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Outside(%s): %v, want %q", c.out, err, c.want)
		}
	}
}
