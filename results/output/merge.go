package output

import (
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/results"
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
or inside an input's directory, and the same run twice (same start time,
host and run name, whatever the path; a merged run remembers its inputs).`

// MergeRequest is a merge as a command line gives it: the inputs (run
// directories or summary files) are its arguments, the tagged fields its
// flags (workloads/flagtag).
type MergeRequest struct {
	Inputs []string
	Out    string `flag:"out" short:"o" value:"DIR" help:"write the merged summary.json, config.json and .hlog files into DIR"`
	Force  bool   `flag:"force" help:"merge runs of different configs, or runs that did not overlap in time"`
	Quiet  bool   `flag:"quiet" short:"q" help:"no table on stdout"`
}

var (
	// ErrNoOut: a merge without its output directory.
	ErrNoOut = errors.New("merge: no output directory")
	// ErrBadInput marks an error of Merge that is the inputs' fault: one
	// that does not read, Out inside one, runs that may not be merged.
	ErrBadInput = errors.New("merge: bad input")
)

// Validate checks r before anything is read: at least two inputs, an Out
// (ErrNoOut) that can be written (an *Error of Dest "out").
func (r MergeRequest) Validate() error {
	switch {
	case len(r.Inputs) < 2:
		return fmt.Errorf("merge: want at least two run directories, got %d", len(r.Inputs))
	case r.Out == "":
		return ErrNoOut
	}
	if err := CheckDir(r.Out); err != nil {
		return &Error{"out", r.Out, err}
	}
	return nil
}

// Merge reads r's inputs (ReadMergeInputs), merges them (results.Merge)
// and writes the merged run into Out (WriteMerged). An error that is the
// inputs' fault is also ErrBadInput; a failed write is an *Error of Dest
// "out".
func (r MergeRequest) Merge() (*results.Summary, error) {
	dirs, err := ReadMergeInputs(r.Out, r.Inputs)
	if err != nil {
		return nil, badInput{err}
	}
	sum, logs, err := results.Merge(dirs, r.Force)
	if errors.Is(err, results.ErrConfigMismatch) || errors.Is(err, results.ErrNotConcurrent) || errors.Is(err, results.ErrDuplicateRun) {
		return nil, badInput{fmt.Errorf("merge: %w", err)}
	}
	if err != nil {
		return nil, err
	}
	if err := WriteMerged(r.Out, sum, logs); err != nil {
		return nil, err
	}
	return sum, nil
}

// badInput is err, also ErrBadInput.
type badInput struct{ error }

func (b badInput) Unwrap() []error { return []error{b.error, ErrBadInput} }
