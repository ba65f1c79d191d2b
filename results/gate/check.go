package gate

import (
	"fmt"
	"math"

	"github.com/lockbench/lockbench/results"
)

// Source is one summary given to the gate, with the path it was read from
// (for messages).
type Source struct {
	Path    string
	Summary *results.Summary
}

// Input is what the gate judges: the current build's summaries and,
// optionally, the baseline's. Repeated runs of one name (in several
// summaries) are samples.
type Input struct {
	Current, Baseline []Source
	// Count is how many runs of every name each side must hold (0: 1).
	Count int
}

// FieldError is bad input, named by the Options or Input field it is
// in (Go field names: the gate's options have no JSON form).
type FieldError = results.FieldError

func fieldErr(field, value, format string, a ...any) *FieldError {
	return &FieldError{Field: field, Value: value, Err: fmt.Errorf(format, a...)}
}

// Validate refuses options no verdict can be made with: a NaN tolerance
// compares false with everything, so it would pass any change.
func (o Options) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"ThroughputTol", o.ThroughputTol}, {"LatencyTol", o.LatencyTol}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return fieldErr(f.name, fmt.Sprint(f.v), "want a finite tolerance of 0 or more (0.10 = 10 %%)")
		}
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fieldErr("Alpha", fmt.Sprint(o.Alpha), "want a value in (0, 1)")
	}
	if !results.KnownOp(o.LatencyOp) {
		return fieldErr("LatencyOp", fmt.Sprintf("%q", o.LatencyOp), "want one of %s", results.OpNames())
	}
	return nil
}

// Check validates opt and in, then judges the current runs against opt's
// thresholds and, when in has a baseline, against it. Refused (a
// *FieldError): invalid options, a side without summaries, a summary
// without runs, a run with impossible values (CheckRun), the same run given
// twice (it would count as two agreeing samples), a run name with fewer
// than Count runs on a side and, with a baseline, a run on either side that
// never measured opt.LatencyOp (a p99 of nothing passes any comparison).
// Warnings say what is allowed but rarely meant: summaries of different
// configs, interrupted runs.
func Check(in Input, opt Options) (Verdict, error) {
	if err := opt.Validate(); err != nil {
		return Verdict{}, err
	}
	if in.Count < 1 {
		in.Count = 1
	}
	op := ""
	if len(in.Baseline) > 0 {
		op = opt.LatencyOp
	}
	var first *Source
	var warnings []*FieldError
	cur, err := runsOf("Current", in.Current, in.Count, op, &first, &warnings)
	if err != nil {
		return Verdict{}, err
	}
	var base []results.Run
	if len(in.Baseline) > 0 {
		if base, err = runsOf("Baseline", in.Baseline, in.Count, op, &first, &warnings); err != nil {
			return Verdict{}, err
		}
	}
	v := Judge(cur, base, opt)
	v.Warnings = warnings
	return v, nil
}

// runsOf checks one side's summaries and returns their runs.
func runsOf(side string, srcs []Source, count int, op string, first **Source, warnings *[]*FieldError) ([]results.Run, error) {
	if len(srcs) == 0 {
		return nil, fieldErr(side, "", "has no summaries")
	}
	var runs []results.Run
	seen := map[string]string{} // run identity → the summary it was read from
	for i := range srcs {
		src := &srcs[i]
		s, path := src.Summary, fmt.Sprintf("%q", src.Path)
		for _, r := range s.Runs {
			if prev, ok := seen[results.RunID(s, r)]; ok {
				return nil, fieldErr(side, path, "run %q is the same run as in %q (repeated runs are samples: give distinct runs)", r.Name, prev)
			}
		}
		for _, r := range s.Runs {
			seen[results.RunID(s, r)] = src.Path
		}
		if len(s.Runs) == 0 {
			return nil, fieldErr(side, path, "the summary has no runs to judge")
		}
		for _, r := range s.Runs {
			if err := CheckRun(r); err != nil {
				return nil, fieldErr(side, path, "run %q: %v", r.Name, err)
			}
			if op != "" && !results.Measured(r, op) {
				return nil, &FieldError{Field: "LatencyOp", Value: op, Err: fieldErr(side, path, "run %q never measured %s latency", r.Name, op)}
			}
		}
		if *first == nil {
			*first = src
		} else if !results.SameConfig((*first).Summary.Config, s.Config) {
			*warnings = append(*warnings, fieldErr(side, path, "was measured with a different config than %q", (*first).Path))
		}
		if s.Interrupted {
			*warnings = append(*warnings, fieldErr(side, path, "was interrupted; its numbers cover part of the run"))
		}
		runs = append(runs, s.Runs...)
	}
	n := map[string]int{}
	var names []string
	for _, r := range runs {
		if n[r.Name] == 0 {
			names = append(names, r.Name)
		}
		n[r.Name]++
	}
	for _, name := range names {
		if c := n[name]; c < count {
			return nil, &FieldError{Field: "Count", Value: fmt.Sprint(count), Err: fieldErr(side, "", "has %d run(s) of %q", c, name)}
		}
	}
	return runs, nil
}
