package output_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/internal/fixture"
	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
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

// TestReadReport: a report reads run directories, their summary.json,
// lone summary files and safety sweeps, alone or mixed; an input that does
// not read, or is JSON of neither kind, is named.
func TestReadReport(t *testing.T) {
	dir, run, file := inputs(t)
	safety, safety2 := fixture.SafetyFile(t, "safety.json"), fixture.SafetyFile(t, "again.json")
	foreign, notJSON, array, noFault := filepath.Join(dir, "foreign.json"), filepath.Join(dir, "bad.json"),
		filepath.Join(dir, "array.json"), filepath.Join(dir, "nofault.json")
	for path, body := range map[string]string{foreign: `{"points": 3}`, notJSON: `{"config": {`, array: `[1, 2]`,
		noFault: `{"config": {}, "points": [{"backend": "redlock"}]}`} {
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name    string
		title   string
		inputs  []string
		bad     string // the input named in the error; "" for success
		is      error  // what the error is, when it says
		sources int
		safety  int // of the sources, safety sweeps
	}{
		{name: "dir", inputs: []string{run}, sources: 1},
		{name: "summary.json and a lone file", title: "t", inputs: []string{filepath.Join(run, "summary.json"), file}, sources: 2},
		{name: "missing", inputs: []string{run, filepath.Join(dir, "none")}, bad: filepath.Join(dir, "none")},
		{name: "dir without summary", inputs: []string{dir}, bad: dir},
		{name: "a safety sweep", inputs: []string{safety}, sources: 1, safety: 1},
		{name: "a safety sweep beside runs", inputs: []string{run, safety, file}, sources: 3, safety: 1},
		{name: "two safety sweeps", inputs: []string{safety, safety2}, sources: 2, safety: 2},
		{name: "JSON of neither kind", inputs: []string{safety, foreign}, bad: foreign, is: schema.ErrNotResult},
		{name: "a JSON array", inputs: []string{array, run}, bad: array, is: schema.ErrNotResult},
		{name: "not JSON", inputs: []string{run, notJSON}, bad: notJSON},
		{name: "a safety point without its fault", inputs: []string{noFault}, bad: noFault},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := output.ReadReport(c.title, time.Unix(100, 5), c.inputs)
			if c.bad != "" {
				var e *output.Error
				if !errors.As(err, &e) || e.Dest != "report" || e.Path != c.bad || c.is != nil && !errors.Is(err, c.is) {
					t.Fatalf("error %v, want a report error naming %s (%v)", err, c.bad, c.is)
				}
				// A file that reads but is not a result is named once (an
				// os error names its path again).
				if st, serr := os.Stat(c.bad); serr == nil && st.Mode().IsRegular() && strings.Count(err.Error(), c.bad) != 1 ||
					strings.Contains(err.Error(), "\n") {
					t.Errorf("error %q: want one line naming %s once", err, c.bad)
				}
				return
			}
			if len(rep.Safety) != c.safety {
				t.Errorf("%d safety sweeps, want %d", len(rep.Safety), c.safety)
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
