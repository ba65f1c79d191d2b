package gate

import (
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/schema"
)

// readInput reads the summaries of both sides: each path a summary file or
// a run directory (its summary.json). A path that does not read is a
// *FieldError of Current or Baseline with the path as its value.
func readInput(current, baseline []string, count int) (Input, error) {
	in := Input{Count: count}
	var err error
	if in.Current, err = readSources("Current", current); err != nil {
		return Input{}, err
	}
	if in.Baseline, err = readSources("Baseline", baseline); err != nil {
		return Input{}, err
	}
	return in, nil
}

// readSources reads the summaries at paths, one side of the Input (field
// names it in errors).
func readSources(field string, paths []string) ([]Source, error) {
	var out []Source
	for _, p := range paths {
		s, err := readSummaryPath(p)
		if err != nil {
			return nil, fielderr.Invalid(field, p, "%v", err)
		}
		out = append(out, Source{Path: p, Summary: s})
	}
	return out, nil
}

// readSummaryPath reads a summary file, or DIR/summary.json.
func readSummaryPath(p string) (*schema.Summary, error) {
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		p = filepath.Join(p, "summary.json")
	}
	return schema.ReadSummary(p)
}
