package gate

import (
	"fmt"
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// Source is one summary given to the gate, with the path it was read from
// (for messages).
type Source struct {
	Path    string
	Summary *schema.Summary
}

// Input is what the gate judges: the current build's summaries and,
// optionally, the baseline's. Repeated runs of one name (in several
// summaries) are samples.
type Input struct {
	Current, Baseline []Source
	// Count is how many runs of every name each side must hold (0: 1).
	Count int
	// Paired: Baseline[i] and Current[i] were measured in one round, side
	// by side, so each pair's difference is a sample (UntilDecided's).
	Paired bool
}

// FieldError is bad input, named by the Options or Input field it is
// in (Go field names: the gate's options have no JSON form).
type FieldError = fielderr.Error

func fieldErr(field, value, format string, a ...any) *FieldError {
	return &FieldError{Field: field, Value: value, Err: fmt.Errorf(format, a...)}
}

// Check validates opt and in, then judges the current runs against opt's
// thresholds and, when in has a baseline, against it. Refused (a
// *FieldError): invalid options, a side without summaries, a summary
// schema.Summary.Validate refuses (unknown schema, no runs, a run given
// twice, nothing measured, impossible values, counts missing), the same
// run given twice or on both sides (it would count as agreeing samples, or
// compare a run with itself), a run name with fewer than Count runs on a
// side, with a baseline a run on either side that never measured
// opt.LatencyOp (a p99 of nothing passes any comparison), and with
// opt.StrictEnv a baseline from another environment (Env). Warnings say
// what is allowed but rarely meant: summaries of different configs,
// interrupted runs.
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
	seen := map[string]string{} // run identity → the summary it was read from
	cur, err := runsOf("Current", in.Current, in.Count, op, &first, &warnings, seen)
	if err != nil {
		return Verdict{}, err
	}
	var base []schema.Run
	var env []string
	if len(in.Baseline) > 0 {
		first = nil // a config differing across the sides is the environment's
		if base, err = runsOf("Baseline", in.Baseline, in.Count, op, &first, &warnings, seen); err != nil {
			return Verdict{}, err
		}
		env = Env(in.Current[0].Summary, in.Baseline[0].Summary)
		if opt.StrictEnv && len(env) > 0 {
			return Verdict{}, fieldErr("StrictEnv", "", "refuses the baseline %q: another environment (%s)", in.Baseline[0].Path, strings.Join(env, "; "))
		}
	}
	v := judge(cur, base, opt, in.Paired && len(in.Current) == len(in.Baseline))
	v.Warnings, v.Env = warnings, env
	if len(base) > 0 {
		v.Machine = machineNote(cur, base)
	}
	return v, nil
}

// runsOf checks one side's summaries and returns their runs.
// runsOf checks one side's summaries and returns their runs; seen holds
// the runs of both sides by identity.
func runsOf(side string, srcs []Source, count int, op string, first **Source, warnings *[]*FieldError, seen map[string]string) ([]schema.Run, error) {
	if len(srcs) == 0 {
		return nil, fieldErr(side, "", "has no summaries")
	}
	var runs []schema.Run
	for i := range srcs {
		src := &srcs[i]
		s, path := src.Summary, fmt.Sprintf("%q", src.Path)
		if err := s.Validate(); err != nil {
			return nil, &FieldError{Field: side, Value: path, Err: err}
		}
		for _, r := range s.Runs {
			if prev, ok := seen[schema.RunID(s, r)]; ok {
				return nil, fieldErr(side, path, "run %q is the same run as in %q (repeated runs are samples, a baseline another measurement: give distinct runs)", r.Name, prev)
			}
		}
		for _, r := range s.Runs {
			seen[schema.RunID(s, r)] = src.Path
		}
		for _, r := range s.Runs {
			if op != "" && !schema.Measured(r, op) {
				return nil, &FieldError{Field: "LatencyOp", Value: op, Err: fieldErr(side, path, "run %q never measured %s latency", r.Name, op)}
			}
		}
		if *first == nil {
			*first = src
		} else if !rundir.SameConfig((*first).Summary.Config, s.Config) {
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
