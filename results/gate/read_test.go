package gate

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestReadInput: a side's path is a summary file or a run directory; one
// that does not read names its side and path.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := os.Mkdir(run, 0o755); err != nil {
		t.Fatal(err)
	}
	s := src("", 1, schema.Run{Name: "a"}).Summary
	file := filepath.Join(dir, "b.json")
	for _, p := range []string{filepath.Join(run, "summary.json"), file} {
		if err := s.WriteJSON(p); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(dir, "none.json")
	cases := []struct {
		name              string
		current, baseline []string
		field             string // "" for success
	}{
		{name: "dir and file", current: []string{run}, baseline: []string{file}},
		{name: "current only", current: []string{file, run}},
		{name: "missing current", current: []string{missing}, field: "Current"},
		{name: "missing baseline", current: []string{run}, baseline: []string{missing}, field: "Baseline"},
		{name: "dir without summary", current: []string{dir}, field: "Current"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := readInput(c.current, c.baseline, 3)
			if c.field != "" {
				var fe *FieldError
				if !errors.As(err, &fe) || fe.Field != c.field {
					t.Fatalf("error %v, want a field error of %s", err, c.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(in.Current) != len(c.current) || len(in.Baseline) != len(c.baseline) || in.Count != 3 {
				t.Fatalf("input %+v", in)
			}
			for _, s := range append(in.Current, in.Baseline...) {
				if len(s.Summary.Runs) != 1 || s.Summary.Runs[0].Name != "a" {
					t.Errorf("%s: runs %+v", s.Path, s.Summary.Runs)
				}
			}
		})
	}
}
