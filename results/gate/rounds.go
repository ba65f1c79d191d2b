package gate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// Measure measures one side once and returns its summary.
type Measure func(ctx context.Context) (*schema.Summary, error)

// Looks are the round counts at which UntilDecided judges, and Spend the
// share of α each look spends. The shares add up to 1 (Bonferroni over the
// looks), so looking again and again cannot raise the chance of a wrong
// verdict above α. Most goes to the later looks, which a noisy runner
// reaches: a clear change is decided early on a small share, a faint one
// late with most of α. The first look is at 8 rounds: the signed-rank test
// of 8 pairs can reach p = 1/256, below its share. The rounds grow by
// about a third from look to look, so each look narrows the intervals by
// about a seventh; a budget that ends first ends the looks there.
var (
	Looks = []int{8, 11, 15, 20, 27, 36, 48, 64}
	spend = []float64{0.1, 0.1, 0.1, 0.1, 0.15, 0.15, 0.15, 0.15}
)

// lookAlpha is the α the k-th look (from 0) spends of alpha.
func lookAlpha(alpha float64, k int) float64 { return alpha * spend[k] }

// LookOptions are opt as the k-th look judges with them.
func LookOptions(opt Options, k int) Options {
	opt.Alpha = lookAlpha(opt.Alpha, k)
	return opt
}

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

// sideName names a side's command in a verdict's words.
var sideName = map[string]string{"BaseCmd": "base", "HeadCmd": "head"}

// untilDecided measures base and head in interleaved rounds (each pair
// of rounds once base first, once head first, in a drawn order) and
// judges them at each of Looks until every metric is decided, the rounds
// run out, the budget is spent or ctx ends;
// the verdict is that of the last look (or of the rounds measured, when
// the budget ended the session between looks). A measurement that fails is
// an error of BaseCmd or HeadCmd; bad input from a side
// (schema.Summary.Validate) one of Baseline or Current.
func untilDecided(ctx context.Context, r Rounds, opt Options) (Verdict, error) {
	if err := opt.Validate(); err != nil {
		return Verdict{}, err
	}
	now := r.Now
	if now == nil {
		now = time.Now
	}
	// Every measurement runs within the budget: a command still running
	// at its end is stopped there (Command's cancellation), so a side that
	// hangs cannot hold the session past it.
	budget, cancelBudget := context.WithTimeout(ctx, r.Budget)
	defer cancelBudget()
	in := Input{Paired: true}
	order, headFirst := rand.New(rand.NewPCG(1, 2)), false
	look := LookOptions(opt, 0)
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
		// Each pair of rounds runs base first once and head first once, so
		// drift over the session weighs on both alike; which comes first in
		// a pair is drawn (seeded). A fixed alternation would put the sides
		// at fixed places in every four runs (base, head, head, base), where
		// a disturbance recurring every four runs — a neighbour's periodic
		// job — falls on one side only.
		if round%2 == 1 {
			headFirst = order.IntN(2) == 1
		} else {
			headFirst = !headFirst
		}
		if headFirst {
			sides[0], sides[1] = sides[1], sides[0]
		}
		spent := false
		for _, s := range sides {
			sum, err := s.m(budget)
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				if budget.Err() != nil {
					why, spent = fmt.Sprintf("budget spent: the %s command was still running at the %v budget's end and was stopped", sideName[s.field], r.Budget), true
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
		if spent {
			break
		}
		if round < Looks[next] {
			continue
		}
		look = LookOptions(opt, next)
		next++
		var err error
		if v, err = Check(in, look); err != nil {
			return Verdict{}, err
		}
		if r.Progress != nil {
			r.Progress(round, v)
		}
		if v.Decision != Inconclusive {
			v.Rounds = fmt.Sprintf("decided after %d rounds (look %d of %d, α %.2g)", round, next, len(Looks), look.Alpha)
			return v, nil
		}
	}
	if why == "" {
		why = "every look made"
	}
	n := min(len(in.Baseline), len(in.Current))
	in.Baseline, in.Current = in.Baseline[:n], in.Current[:n]
	if n == 0 {
		return Verdict{Decision: Inconclusive, Rounds: "no round measured: " + why}, nil
	}
	v, err := Check(in, look)
	if err != nil {
		return Verdict{}, err
	}
	v.Rounds = fmt.Sprintf("undecided after %d rounds: %s (α %.2g)", n, why, look.Alpha)
	return v, nil
}
