package output_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/rundir"
)

// inputs writes a run directory and a lone summary file into a temp dir.
func inputs(t *testing.T) (dir, run, file string) {
	t.Helper()
	dir = t.TempDir()
	run, file = filepath.Join(dir, "run"), filepath.Join(dir, "lone.json")
	if err := (output.Writer{Out: run, NoTable: true}).Write(summary(t), nil); err != nil {
		t.Fatal(err)
	}
	if err := summary(t).WriteJSON(file); err != nil {
		t.Fatal(err)
	}
	return dir, run, file
}

// TestReadReport: a report reads run directories, their summary.json and
// lone summary files; an input that does not read is named.
func TestReadReport(t *testing.T) {
	dir, run, file := inputs(t)
	cases := []struct {
		name    string
		title   string
		inputs  []string
		bad     string // the input named in the error; "" for success
		sources int
	}{
		{name: "dir", inputs: []string{run}, sources: 1},
		{name: "summary.json and a lone file", title: "t", inputs: []string{filepath.Join(run, "summary.json"), file}, sources: 2},
		{name: "missing", inputs: []string{run, filepath.Join(dir, "none")}, bad: filepath.Join(dir, "none")},
		{name: "dir without summary", inputs: []string{dir}, bad: dir},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := output.ReadReport(c.title, time.Unix(100, 5), c.inputs)
			if c.bad != "" {
				var e *output.Error
				if !errors.As(err, &e) || e.Dest != "report" || e.Path != c.bad {
					t.Fatalf("error %v, want a report error naming %s", err, c.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := c.title
			if want == "" {
				want = "lockbench report"
			}
			if rep.Title != want || !rep.Generated.Equal(time.Unix(100, 0)) || len(rep.Sources) != c.sources {
				t.Errorf("title %q generated %v sources %d; want %q, %d", rep.Title, rep.Generated, len(rep.Sources), want, c.sources)
			}
		})
	}
}

// TestReadMergeInputs: inputs are read, and out may not be inside one.
func TestReadMergeInputs(t *testing.T) {
	dir, run, file := inputs(t)
	merged := filepath.Join(t.TempDir(), "merged")
	for _, c := range []struct {
		name, out string
		inputs    []string
		dest      string // "" for success
	}{
		{name: "two inputs", out: merged, inputs: []string{run, file}},
		{name: "missing input", out: merged, inputs: []string{run, filepath.Join(dir, "none")}, dest: "merge"},
		{name: "out inside an input", out: filepath.Join(run, "sub"), inputs: []string{run, file}, dest: "out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dirs, err := output.ReadMergeInputs(c.out, c.inputs)
			if c.dest != "" {
				var e *output.Error
				if !errors.As(err, &e) || e.Dest != c.dest {
					t.Fatalf("error %v, want one of dest %s", err, c.dest)
				}
				return
			}
			if err != nil || len(dirs) != len(c.inputs) {
				t.Fatalf("%d dirs, error %v", len(dirs), err)
			}
		})
	}
}

// TestWriteMerged: a merged result is a run directory again.
func TestWriteMerged(t *testing.T) {
	out := filepath.Join(t.TempDir(), "merged")
	d, err := outpath.Claim(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	if err := output.WriteMerged(d, summary(t), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := rundir.ReadRunDir(out); err != nil {
		t.Fatal(err)
	}
}
