package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Request is a gate as a command line gives it: the summaries by path
// (each a summary file or a run directory) and the thresholds as text.
// Tagged fields are the flags of lockbench gate (internal/flagtag); the
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
	// UntilDecided measures the sides itself, running BaseCmd and HeadCmd
	// in interleaved rounds until every metric is decided or Budget is
	// spent (UntilDecided, Command); Current and Baseline are then not
	// given.
	UntilDecided bool          `flag:"until-decided" help:"run --base-cmd and --head-cmd in interleaved rounds until every metric is decided or --budget is spent"`
	Budget       time.Duration `flag:"budget" help:"--until-decided: time for all rounds"`
	BaseCmd      string        `flag:"base-cmd" help:"--until-decided: shell command measuring the baseline once, writing its summary to $LOCKBENCH_SUMMARY"`
	HeadCmd      string        `flag:"head-cmd" help:"--until-decided: shell command measuring the current build once, writing its summary to $LOCKBENCH_SUMMARY"`
}

// NewRequest is a Request with DefaultOptions, a Count of 1 and the table
// format.
func NewRequest() Request {
	return Request{Options: DefaultOptions(), Count: 1, Format: "table", Budget: 10 * time.Minute}
}

var (
	// ErrNoSummaries: a request without current summaries.
	ErrNoSummaries = errors.New("gate: no summaries given")
	// ErrNothingToCheck: a request with neither thresholds nor a baseline.
	ErrNothingToCheck = errors.New("gate: nothing to check")
)

// Validate checks r before anything is read, in this order: the rounds'
// fields, current summaries (ErrNoSummaries), Format, Count and Options (a
// *FieldError of the field), something to check (ErrNothingToCheck).
func (r Request) Validate() error {
	if err := r.validateRounds(); err != nil {
		return err
	}
	switch {
	case len(r.Current) == 0 && !r.UntilDecided:
		return ErrNoSummaries
	case r.Format != "" && r.Format != "table" && !r.Markdown():
		return fieldErr("Format", fmt.Sprintf("%q", r.Format), "want table or md")
	case r.Count < 1:
		return fieldErr("Count", fmt.Sprint(r.Count), "must be at least 1")
	}
	if err := r.Options.Validate(); err != nil {
		return err
	}
	if len(r.Thresholds) == 0 && len(r.Baseline) == 0 && !r.UntilDecided {
		return ErrNothingToCheck
	}
	return nil
}

func (r Request) validateRounds() error {
	if !r.UntilDecided {
		for _, f := range []struct{ name, v string }{{"BaseCmd", r.BaseCmd}, {"HeadCmd", r.HeadCmd}} {
			if f.v != "" {
				return fieldErr(f.name, fmt.Sprintf("%q", f.v), "measures only with --until-decided")
			}
		}
		return nil
	}
	switch {
	case strings.TrimSpace(r.BaseCmd) == "":
		return fieldErr("BaseCmd", "", "is needed to measure the baseline")
	case strings.TrimSpace(r.HeadCmd) == "":
		return fieldErr("HeadCmd", "", "is needed to measure the current build")
	case r.Budget <= 0:
		return fieldErr("Budget", r.Budget.String(), "must be positive")
	case len(r.Current) > 0 || len(r.Baseline) > 0:
		return fieldErr("UntilDecided", "", "measures both sides: give no summaries or --baseline")
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
	in, err := readInput(r.Current, r.Baseline, r.Count)
	if err != nil {
		return Verdict{}, err
	}
	return Check(in, opt)
}

// Measure runs r's rounds (UntilDecided over Command sides, the summaries
// in a temporary directory removed after), judging them with r's
// thresholds. progress, when set, is told each look.
func (r Request) Measure(ctx context.Context, progress func(int, Verdict)) (Verdict, error) {
	ts, err := ParseThresholds(r.Thresholds)
	if err != nil {
		return Verdict{}, err
	}
	opt := r.Options
	opt.Thresholds = append(append([]Threshold(nil), opt.Thresholds...), ts...)
	dir, err := os.MkdirTemp("", "lockbench-gate-")
	if err != nil {
		return Verdict{}, err
	}
	defer os.RemoveAll(dir)
	base, head := dir+"/base", dir+"/head"
	for _, d := range []string{base, head} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return Verdict{}, err
		}
	}
	return untilDecided(ctx, Rounds{Base: command(r.BaseCmd, base), Head: command(r.HeadCmd, head),
		Budget: r.Budget, Progress: progress}, opt)
}
