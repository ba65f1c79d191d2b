package gate

import (
	"errors"
	"fmt"
)

// Request is a gate as a command line gives it: the summaries by path
// (each a summary file or a run directory) and the thresholds as text.
// Tagged fields are the flags of lockbench gate (workloads/flagtag); the
// current summaries are its arguments.
type Request struct {
	Options
	Current    []string
	Thresholds []string `flag:"threshold,array" help:"check METRIC OP VALUE, e.g. 'cycle.p99<2ms' (repeatable)"`
	Baseline   []string `flag:"baseline,array" help:"baseline summary.json or --out DIR (repeatable: repeated runs are samples)"`
	Count      int      `flag:"count" help:"require at least N runs of every run name on each side (medians + Mann-Whitney when N>1)"`
	// Format is how the verdict is written (Write): "table" or "md" (or
	// "markdown", for CI job summaries); "" is "table".
	Format string `flag:"format" help:"output: table|md (markdown, for CI job summaries)"`
}

// NewRequest is a Request with DefaultOptions, a Count of 1 and the table
// format.
func NewRequest() Request { return Request{Options: DefaultOptions(), Count: 1, Format: "table"} }

var (
	// ErrNoSummaries: a request without current summaries.
	ErrNoSummaries = errors.New("gate: no summaries given")
	// ErrNothingToCheck: a request with neither thresholds nor a baseline.
	ErrNothingToCheck = errors.New("gate: nothing to check")
)

// Validate checks r before anything is read, in this order: current
// summaries (ErrNoSummaries), Format, Count and Options (a *FieldError of
// the field), something to check (ErrNothingToCheck).
func (r Request) Validate() error {
	switch {
	case len(r.Current) == 0:
		return ErrNoSummaries
	case r.Format != "" && r.Format != "table" && !r.Markdown():
		return fieldErr("Format", fmt.Sprintf("%q", r.Format), "want table or md")
	case r.Count < 1:
		return fieldErr("Count", fmt.Sprint(r.Count), "must be at least 1")
	}
	if err := r.Options.Validate(); err != nil {
		return err
	}
	if len(r.Thresholds) == 0 && len(r.Baseline) == 0 {
		return ErrNothingToCheck
	}
	return nil
}

// Markdown: the verdict is written as markdown (Format "md" or
// "markdown").
func (r Request) Markdown() bool { return r.Format == "md" || r.Format == "markdown" }

// Run parses r's thresholds (added to its Options'), reads its summaries
// (ReadInput) and judges them (Check). Bad input is a *FieldError of a
// Request field: Thresholds, Current, Baseline, Count or an Options field.
func Run(r Request) (Verdict, error) {
	ts, err := ParseThresholds(r.Thresholds)
	if err != nil {
		return Verdict{}, err
	}
	opt := r.Options
	opt.Thresholds = append(append([]Threshold(nil), opt.Thresholds...), ts...)
	in, err := ReadInput(r.Current, r.Baseline, r.Count)
	if err != nil {
		return Verdict{}, err
	}
	return Check(in, opt)
}
