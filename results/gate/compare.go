package gate

import (
	"fmt"
	"math"
)

// comparison is one metric of one run name, baseline against current.
type comparison struct {
	run       string
	m         judgedMetric
	base, cur []float64
	paired    bool // base[i] and cur[i] measured in one round
}

// judgeShifts judges every comparison together. Each is a shift of the
// current sample over the baseline's in the bad direction (ShiftTest, or
// PairedShiftTest for samples measured in rounds, on
// the log scale where every value is positive, so a change is relative),
// tested twice: "no worse" (small p: worse) and "worse by tol or more"
// (small p: within tolerance). Both families get the Holm correction over
// all comparisons. Regressed: worse, and the estimate beyond tol. Pass:
// shown within tol. Otherwise inconclusive.
func judgeShifts(cmp []comparison, alpha float64) []Row {
	rows := make([]Row, len(cmp))
	shifts := make([]Shift, len(cmp))
	taus := make([]float64, len(cmp))
	above, below := make([]float64, len(cmp)), make([]float64, len(cmp))
	for i, c := range cmp {
		above[i], below[i] = math.NaN(), math.NaN()
		rows[i] = noRow(c.run, shortMetric(c.m.path), Inconclusive, "")
		r := &rows[i]
		r.Path, r.Tol, r.Samples = c.m.path, c.m.tol, [2]int{len(c.base), len(c.cur)}
		r.Baseline, r.Current = median(c.base), median(c.cur)
		switch {
		case len(c.base) == 0 || len(c.cur) == 0:
			r.Note = "cannot judge: no " + r.Check + " on one side"
			continue
		case checkTol(c.m.tol) != nil:
			r.Note = fmt.Sprintf("cannot judge: tolerance %v", c.m.tol)
			continue
		case same(c.base, c.cur):
			// No spread to test, but one run a side still says nothing
			// of the noise: as many as one test would need.
			r.Change, r.Lo, r.Hi, r.Note = 0, 0, 0, "the same on every sample"
			if n := needed(1, alpha, c.paired); min(len(c.base), len(c.cur)) < n {
				r.Note += fmt.Sprintf(", but too few to decide: %d a side needed", n)
			} else {
				r.Decision = pass
			}
			continue
		}
		sign := 1.0 // the bad direction is up
		if c.m.higherBetter {
			sign = -1
		}
		logScale := positive(c.base) && positive(c.cur)
		x, y := oriented(c.base, sign, logScale), oriented(c.cur, sign, logScale)
		switch {
		case !logScale:
			taus[i] = c.m.tol * math.Abs(r.Baseline)
		case c.m.higherBetter && c.m.tol >= 1:
			taus[i] = math.Inf(1)
		case c.m.higherBetter:
			taus[i] = -math.Log(1 - c.m.tol)
		default:
			taus[i] = math.Log(1 + c.m.tol)
		}
		if c.paired {
			shifts[i] = pairedShiftTest(x, y, taus[i], alpha)
		} else {
			shifts[i] = shiftTest(x, y, taus[i], alpha)
		}
		above[i], below[i] = shifts[i].PAbove, shifts[i].PBelow
		s := shifts[i]
		r.Change, r.Lo, r.Hi = relative(s.Est, sign, logScale, r.Baseline), relative(s.Lo, sign, logScale, r.Baseline), relative(s.Hi, sign, logScale, r.Baseline)
		if r.Lo > r.Hi {
			r.Lo, r.Hi = r.Hi, r.Lo
		}
	}
	adjAbove, adjBelow := holm(above), holm(below)
	m := 0
	for _, p := range above {
		if !math.IsNaN(p) {
			m++
		}
	}
	for i := range rows {
		r := &rows[i]
		if math.IsNaN(adjAbove[i]) {
			continue
		}
		r.P = adjAbove[i]
		switch {
		case adjAbove[i] < alpha && shifts[i].Est > taus[i]:
			r.Decision, r.Note = Regressed, "worse by more than "+fmtTol(r.Tol)
		case adjBelow[i] < alpha:
			r.Decision = pass
		case min(r.Samples[0], r.Samples[1]) < needed(m, alpha, cmp[i].paired):
			r.Note = fmt.Sprintf("too few samples to decide %d metric(s) at α=%.2g: %d a side needed", m, alpha, needed(m, alpha, cmp[i].paired))
		case adjAbove[i] < alpha:
			r.Note = "worse, but not shown beyond " + fmtTol(r.Tol)
		default:
			r.Note = undecidedNote(*r, cmp[i].m.higherBetter, m)
		}
	}
	return rows
}

// undecidedNote says why r, neither shown worse nor shown within its
// tolerance, is undecided. Its printed interval is the test's own at α;
// the decision is Holm's over m metrics, which asks more of each: when the
// interval's bad end is within the tolerance the note says so, rather than
// that the interval reaches past it.
func undecidedNote(r Row, higherBetter bool, m int) string {
	bad := r.Hi // the bad direction is up
	if higherBetter {
		bad = -r.Lo
	}
	if m > 1 && !math.IsNaN(bad) && bad <= r.Tol {
		return fmt.Sprintf("within %s on its own, not yet once adjusted for %d metrics (Holm)", fmtTol(r.Tol), m)
	}
	return "the interval reaches past " + fmtTol(r.Tol)
}

// oriented is xs with the bad direction up, on the log scale or not.
func oriented(xs []float64, sign float64, logScale bool) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		if logScale {
			x = math.Log(x)
		}
		out[i] = sign * x
	}
	return out
}

// relative turns a shift in oriented units back into a relative change of
// the metric (NaN, ±Inf kept).
func relative(shift, sign float64, logScale bool, base float64) float64 {
	if logScale {
		return math.Exp(sign*shift) - 1
	}
	if shift == 0 {
		return 0
	}
	if base == 0 {
		return math.Copysign(math.Inf(1), sign*shift)
	}
	return sign * shift / math.Abs(base)
}

func positive(xs []float64) bool {
	for _, x := range xs {
		if !(x > 0) {
			return false
		}
	}
	return true
}

// same: every sample of both sides is one value.
func same(a, b []float64) bool {
	for _, xs := range [][]float64{a, b} {
		for _, x := range xs {
			if x != a[0] {
				return false
			}
		}
	}
	return true
}
