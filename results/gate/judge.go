package gate

import (
	"fmt"
	"math"
	"sort"

	"github.com/lockbench/lockbench/results/schema"
)

// Judge checks cur (runs grouped by name; repeated runs are samples)
// against the thresholds and, when base is not empty, against the
// baseline: every metric of opt.judged for every run name, each judged
// pass, regressed or inconclusive at opt.Alpha with the Holm correction
// over all of them (judgeShifts).
func Judge(cur, base []schema.Run, opt Options) Verdict { return judge(cur, base, opt, false) }

// judge is Judge; paired: the i-th runs of a name on both sides were
// measured in one round (PairedShiftTest).
func judge(cur, base []schema.Run, opt Options, paired bool) Verdict {
	var res Verdict
	curBy, names := groupRuns(cur)
	for _, t := range opt.Thresholds {
		matched := false
		for _, name := range names {
			if !t.Applies(name) {
				continue
			}
			matched = true
			vs := samples(curBy[name], t.Metric)
			v := median(vs)
			p, _ := resolveMetric(t.Metric)
			row := Row{Run: name, Check: t.Expr, Path: p, Baseline: math.NaN(), Current: v, Change: math.NaN(),
				Lo: math.NaN(), Hi: math.NaN(), Tol: math.NaN(), P: math.NaN(), Samples: [2]int{0, len(vs)}}
			if len(vs) == 0 || !t.Holds(v) {
				row.Decision = Regressed
			}
			if len(vs) == 0 {
				row.Note = "the run has no " + t.Metric
			}
			res.add(row)
		}
		if !matched {
			res.add(noRow(t.Runs, t.Expr, Regressed, "no run matches"))
		}
	}
	if len(base) == 0 {
		return res
	}
	metrics, err := opt.judged()
	if err != nil {
		res.add(noRow("", "metrics", Inconclusive, err.Error()))
		return res
	}
	baseBy, baseNames := groupRuns(base)
	var cmp []comparison
	for _, name := range names {
		b, ok := baseBy[name]
		if !ok {
			res.add(noRow(name, "baseline", pass, "new: not in the baseline"))
			continue
		}
		pairs := paired && len(b) == len(curBy[name])
		for i, m := range metrics {
			bs, cs := samples(b, m.path), samples(curBy[name], m.path)
			if pairs {
				bs, cs = pairedSamples(b, curBy[name], m.path)
			}
			if len(bs) == 0 && len(cs) == 0 && i < costMetrics {
				continue // a cost this kind of run does not measure
			}
			cmp = append(cmp, comparison{run: name, m: m, base: bs, cur: cs, paired: pairs})
		}
	}
	for _, r := range judgeShifts(cmp, opt.Alpha) {
		res.add(r)
	}
	for _, name := range baseNames {
		if _, ok := curBy[name]; !ok {
			res.add(noRow(name, "baseline", Regressed, "missing: in the baseline, not in this run"))
		}
	}
	return res
}

// costMetrics is how many of opt.judged's first metrics are per-cycle
// costs, which runs without a cost section (or masters whose CPU cannot be
// read) lack on both sides.
const costMetrics = 6

func noRow(run, check string, o Decision, note string) Row {
	nan := math.NaN()
	return Row{Run: run, Check: check, Baseline: nan, Current: nan, Change: nan, Lo: nan, Hi: nan, Tol: nan, P: nan,
		Decision: o, Note: note}
}

// measured is a run with its metrics, read once.
type measured struct {
	run    schema.Run
	fields map[string]float64
}

// groupRuns groups runs by name, names sorted.
func groupRuns(runs []schema.Run) (map[string][]measured, []string) {
	by := map[string][]measured{}
	var names []string
	for _, r := range runs {
		if _, ok := by[r.Name]; !ok {
			names = append(names, r.Name)
		}
		by[r.Name] = append(by[r.Name], measured{run: r, fields: flatten(r)})
	}
	sort.Strings(names)
	return by, names
}

func samples(runs []measured, metric string) []float64 {
	out := make([]float64, 0, len(runs))
	for _, m := range runs {
		if v, ok := sample(m, metric); ok {
			out = append(out, v)
		}
	}
	return out
}

// pairedSamples are metric of the runs of both sides that have it on both.
func pairedSamples(b, c []measured, metric string) (bs, cs []float64) {
	for i := range b {
		x, okB := sample(b[i], metric)
		y, okC := sample(c[i], metric)
		if okB && okC {
			bs, cs = append(bs, x), append(cs, y)
		}
	}
	return bs, cs
}

// needed is the fewest samples a side with which m one-sided tests can
// reach alpha after the Holm correction: the smallest one-sided p is
// 1/C(2n, n) for the U test, 1/2^n for the signed-rank test of n pairs.
func needed(m int, alpha float64, paired bool) int {
	for n := 1; ; n++ {
		minP := MinP(n, n) / 2
		if paired {
			minP = math.Ldexp(1, -n)
		}
		if minP < alpha/float64(max(m, 1)) {
			return n
		}
	}
}

func fmtTol(tol float64) string { return fmt.Sprintf("%.0f %%", tol*100) }
