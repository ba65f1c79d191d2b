package output

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lockbench/lockbench/results/internal/outpath"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// MergeHelp is what merge does and refuses, in the words of
// MergeRequest's flags: lockbench merge's help.
const MergeHelp = `merge combines --out directories of runs that drove the same masters at the
same time: each run's histograms are merged interval by interval from the
.hlog files (percentiles are never averaged), counts are summed, workers
added, and throughput is recomputed over the window all inputs were
measuring. OUT gets summary.json, config.json and merged .hlog files, so it
can be gated, reported or merged again.

An input is an --out directory (its summary.json) or exactly the summary
file named, with the .hlog files beside it.

Runs of different configs (the key prefix aside), or that did not overlap
in time, are refused unless --force. Always refused (exit 2): OUT equal to
or inside an input's directory; OUT holding files lockbench did not write
there (an earlier result lockbench wrote is replaced, and merge says so);
the same run twice (same start time, host and run name, whatever the path;
a merged run remembers its inputs); an input that is not a valid lockbench
summary (unknown schema, no runs, a run twice in it, a negative or
non-finite count or figure).`

// MergeRequest is a merge as a command line gives it: the inputs (run
// directories or summary files) are its arguments, the tagged fields its
// flags (internal/flagtag).
type MergeRequest struct {
	Inputs []string
	Out    string `flag:"out" short:"o" value:"DIR" help:"write the merged summary.json, config.json and .hlog files into DIR"`
	Force  bool   `flag:"force" help:"merge runs of different configs, or runs that did not overlap in time"`
	Quiet  bool   `flag:"quiet" short:"q" help:"no table on stdout"`
	// Log is told when Out's earlier result is replaced (nil: os.Stderr).
	Log io.Writer `json:"-"`
}

var (
	// ErrNoOut: a merge without its output directory.
	ErrNoOut = errors.New("merge: no output directory")
	// ErrBadInput marks an error of Merge that is the inputs' fault: one
	// that does not read, Out inside one, runs that may not be merged.
	ErrBadInput = errors.New("merge: bad input")
)

// Validate checks r before anything is read: at least two inputs, an Out
// (ErrNoOut) that can be written, is no input's file and lies outside
// every input's directory (an *Error of Dest "out").
func (r MergeRequest) Validate() error {
	switch {
	case len(r.Inputs) < 2:
		return fmt.Errorf("merge: want at least two run directories, got %d", len(r.Inputs))
	case r.Out == "":
		return ErrNoOut
	}
	p := inputPlan(r.Inputs)
	p.Dirs = []outpath.Path{{Dest: "out", Path: r.Out}}
	if err := p.Check(); err != nil {
		return err
	}
	for _, in := range append(p.InputDirs, p.Inputs...) {
		dir := in.Path
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			dir = filepath.Dir(dir)
		}
		if err := outpath.Outside(r.Out, dir); err != nil {
			return &Error{Dest: "out", Path: r.Out, Err: err}
		}
	}
	return nil
}

// Merge reads r's inputs (readMergeInputs), merges them (rundir.Merge)
// and writes the merged run into Out (writeMerged). An error that is the
// inputs' fault is also ErrBadInput; a failed write is an *Error of Dest
// "out".
func (r MergeRequest) Merge() (*schema.Summary, error) {
	d, err := outpath.Claim(r.Out)
	if err != nil {
		return nil, badInput{&Error{Dest: "out", Path: r.Out, Err: err}}
	}
	defer d.Release()
	dirs, err := readMergeInputs(r.Out, r.Inputs)
	if err != nil {
		return nil, badInput{err}
	}
	sum, logs, err := rundir.Merge(dirs, r.Force)
	if errors.Is(err, rundir.ErrConfigMismatch) || errors.Is(err, rundir.ErrNotConcurrent) || errors.Is(err, rundir.ErrDuplicateRun) || errors.Is(err, schema.ErrInvalidSummary) {
		return nil, badInput{fmt.Errorf("merge: %w", err)}
	}
	if err != nil {
		return nil, err
	}
	if d.Earlier() {
		log := r.Log
		if log == nil {
			log = os.Stderr
		}
		fmt.Fprintf(log, "merge: replacing the earlier result lockbench wrote in %s\n", r.Out)
	}
	if err := writeMerged(d, sum, logs); err != nil {
		return nil, err
	}
	return sum, nil
}

// badInput is err, also ErrBadInput.
type badInput struct{ error }

func (b badInput) Unwrap() []error { return []error{b.error, ErrBadInput} }
