package gate

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results"
)

// Measure measures one side once and returns its summary.
type Measure func(ctx context.Context) (*results.Summary, error)

// Looks are the round counts at which UntilDecided judges. Each look
// spends α/len(Looks) (Bonferroni over the looks), so looking again and
// again cannot raise the chance of a wrong verdict above α.
// The first is 8: the signed-rank test of 8 pairs can reach p = 1/256.
var Looks = []int{8, 11, 15, 20, 27, 36}

// Rounds configure UntilDecided.
type Rounds struct {
	Base, Head Measure
	// Budget bounds the whole measurement: no round starts that the
	// rounds so far say would end after it.
	Budget time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Progress, when set, is told each judged look.
	Progress func(rounds int, v Verdict)
}

// UntilDecided measures base and head in interleaved rounds (base first
// in odd rounds, head first in even ones, so drift over the session
// weighs on both alike) and judges them at each of Looks until every
// metric is decided, the rounds run out, the budget is spent or ctx ends;
// the verdict is that of the last look (or of the rounds measured, when
// the budget ended the session between looks). A measurement that fails is
// an error of BaseCmd or HeadCmd; bad input from a side
// (results.Summary.Validate) one of Baseline or Current.
func UntilDecided(ctx context.Context, r Rounds, opt Options) (Verdict, error) {
	if err := opt.Validate(); err != nil {
		return Verdict{}, err
	}
	now := r.Now
	if now == nil {
		now = time.Now
	}
	look := opt
	look.Alpha = opt.Alpha / float64(len(Looks))
	in := Input{Paired: true}
	start, next := now(), 0
	var v Verdict
	why := ""
	for round := 1; next < len(Looks); round++ {
		if ctx.Err() != nil {
			why = "interrupted"
			break
		}
		if el := now().Sub(start); round > 1 && el+el/time.Duration(round-1) > r.Budget {
			why = "budget spent"
			break
		}
		sides := []struct {
			field string
			m     Measure
			into  *[]Source
		}{{"BaseCmd", r.Base, &in.Baseline}, {"HeadCmd", r.Head, &in.Current}}
		if round%2 == 0 {
			sides[0], sides[1] = sides[1], sides[0]
		}
		for _, s := range sides {
			sum, err := s.m(ctx)
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				return Verdict{}, fieldErr(s.field, "", "round %d: %v", round, err)
			}
			*s.into = append(*s.into, Source{Path: fmt.Sprintf("round %d", round), Summary: sum})
		}
		if ctx.Err() != nil {
			why = "interrupted"
			break
		}
		if round < Looks[next] {
			continue
		}
		next++
		var err error
		if v, err = Check(in, look); err != nil {
			return Verdict{}, err
		}
		if r.Progress != nil {
			r.Progress(round, v)
		}
		if v.Outcome != Inconclusive {
			v.Rounds = fmt.Sprintf("decided after %d rounds (α %.2g per look, %d looks)", round, look.Alpha, len(Looks))
			return v, nil
		}
	}
	if why == "" {
		why = "every look made"
	}
	n := min(len(in.Baseline), len(in.Current))
	in.Baseline, in.Current = in.Baseline[:n], in.Current[:n]
	if n == 0 {
		return Verdict{Outcome: Inconclusive, Rounds: "no round measured: " + why}, nil
	}
	v, err := Check(in, look)
	if err != nil {
		return Verdict{}, err
	}
	v.Rounds = fmt.Sprintf("undecided after %d rounds: %s (α %.2g per look)", n, why, look.Alpha)
	return v, nil
}
