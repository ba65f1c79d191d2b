package gate

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// Options configure a CI gate.
type Options struct {
	Thresholds []Threshold
	// ThroughputTol and LatencyTol are the relative changes tolerated as
	// noise against the baseline (0.10 = 10 %).
	ThroughputTol float64 `flag:"throughput-tol" help:"tolerated relative drop of cycles/s vs the baseline"`
	LatencyTol    float64 `flag:"latency-tol" help:"tolerated relative rise of p99 vs the baseline"`
	// LatencyOp's p99 is the latency compared against the baseline.
	LatencyOp string `flag:"op" help:"op whose p99 is compared with the baseline: acquire|acquire_total|release|cycle|extend"`
	// Alpha is the significance level of the Mann-Whitney U test, used
	// when both sides have at least two samples of a run.
	Alpha float64 `flag:"alpha" help:"significance level of the Mann-Whitney U test"`
}

// DefaultOptions: 10 % throughput, 20 % p99 of cycle, α = 0.05.
func DefaultOptions() Options {
	return Options{ThroughputTol: 0.10, LatencyTol: 0.20, LatencyOp: "cycle", Alpha: 0.05}
}

// Row is one check.
type Row struct {
	Run, Check        string
	Baseline, Current float64 // medians; Baseline NaN for thresholds
	Change            float64 // relative, current vs baseline
	P                 float64 // Mann-Whitney p; NaN when not tested
	Samples           [2]int  // baseline, current
	Pass              bool
	Note              string
}

// Verdict is the gate's judgement: one row per check.
type Verdict struct {
	Rows   []Row
	Failed bool
	// Warnings: what Check allowed but is rarely meant (summaries of
	// different configs, interrupted runs).
	Warnings []*FieldError
}

// FailedChecks are the rows that failed, each as "RUN CHECK".
func (v Verdict) FailedChecks() []string {
	var failed []string
	for _, r := range v.Rows {
		if !r.Pass {
			failed = append(failed, r.Run+" "+r.Check)
		}
	}
	return failed
}

// Judge checks cur (runs grouped by name; repeated runs are samples) against
// thresholds and, when base is not empty, against the baseline.
func Judge(cur, base []results.Run, opt Options) Verdict {
	var res Verdict
	add := func(r Row) {
		res.Rows = append(res.Rows, r)
		res.Failed = res.Failed || !r.Pass
	}
	curBy, names := groupRuns(cur)
	for _, t := range opt.Thresholds {
		matched := false
		for _, name := range names {
			if !t.Applies(name) {
				continue
			}
			matched = true
			vs := samples(curBy[name], t.Metric)
			v := Median(vs)
			row := Row{Run: name, Check: t.Expr, Baseline: math.NaN(), Current: v, Change: math.NaN(),
				P: math.NaN(), Samples: [2]int{0, len(vs)}, Pass: len(vs) > 0 && t.Holds(v)}
			if len(vs) == 0 {
				row.Note = "the run has no " + t.Metric
			}
			add(row)
		}
		if !matched {
			add(Row{Run: t.Runs, Check: t.Expr, Baseline: math.NaN(), Current: math.NaN(), Change: math.NaN(),
				P: math.NaN(), Note: "no run matches"})
		}
	}
	if len(base) == 0 {
		return res
	}
	baseBy, baseNames := groupRuns(base)
	checks := []struct {
		metric string
		tol    float64
		higher bool // higher is better
	}{
		{"throughput.cycles_per_s", opt.ThroughputTol, true},
		{"latency_us." + opt.LatencyOp + ".p99", opt.LatencyTol, false},
	}
	for _, name := range names {
		b, ok := baseBy[name]
		if !ok {
			add(Row{Run: name, Check: "baseline", Baseline: math.NaN(), Current: math.NaN(), Change: math.NaN(),
				P: math.NaN(), Pass: true, Note: "new: not in the baseline"})
			continue
		}
		for _, c := range checks {
			add(compare(name, c.metric, c.tol, c.higher, samples(b, c.metric), samples(curBy[name], c.metric), opt.Alpha))
		}
	}
	for _, name := range baseNames {
		if _, ok := curBy[name]; !ok {
			add(Row{Run: name, Check: "baseline", Baseline: math.NaN(), Current: math.NaN(), Change: math.NaN(),
				P: math.NaN(), Note: "missing: in the baseline, not in this run"})
		}
	}
	return res
}

// compare fails only on a change in the bad direction beyond tol that is
// also significant when there are samples enough to test it.
func compare(name, metric string, tol float64, higher bool, b, c []float64, alpha float64) Row {
	bm, cm := Median(b), Median(c)
	r := Row{Run: name, Check: shortMetric(metric), Baseline: bm, Current: cm, P: math.NaN(),
		Samples: [2]int{len(b), len(c)}}
	switch {
	case len(b) == 0 || len(c) == 0:
		r.Change = math.NaN()
		r.Note = "cannot judge: no " + shortMetric(metric) + " on one side"
		return r
	case math.IsNaN(tol) || math.IsInf(tol, 0) || tol < 0:
		r.Change = math.NaN()
		r.Note = fmt.Sprintf("cannot judge: tolerance %v", tol)
		return r
	}
	r.Change = (cm - bm) / bm
	if bm == 0 {
		r.Change = 0
		if cm != bm {
			r.Change = math.Inf(1)
		}
	}
	worse := r.Change < -tol
	if !higher {
		worse = r.Change > tol
	}
	if len(b) >= 2 && len(c) >= 2 {
		_, r.P = MannWhitney(b, c)
		if MinP(len(b), len(c)) >= alpha {
			// The test cannot reach alpha with so few samples: the
			// tolerance on the medians decides alone.
			r.Note = fmt.Sprintf("too few runs for the U test at α=%.2g (4 a side needed); medians vs tolerance", alpha)
		} else if worse && r.P >= alpha {
			r.Note = fmt.Sprintf("beyond ±%.0f%% but not significant (p ≥ %.2g)", tol*100, alpha)
			worse = false
		}
	}
	r.Pass = !worse
	if worse {
		r.Note = strings.TrimSuffix(fmt.Sprintf("regression beyond %.0f%%; %s", tol*100, r.Note), "; ")
	}
	return r
}

func shortMetric(p string) string {
	p = strings.TrimPrefix(p, "throughput.")
	return strings.TrimPrefix(p, "latency_us.")
}

func groupRuns(runs []results.Run) (map[string][]results.Run, []string) {
	by := map[string][]results.Run{}
	var names []string
	for _, r := range runs {
		if _, ok := by[r.Name]; !ok {
			names = append(names, r.Name)
		}
		by[r.Name] = append(by[r.Name], r)
	}
	sort.Strings(names)
	return by, names
}

func samples(runs []results.Run, metric string) []float64 {
	out := make([]float64, 0, len(runs))
	for _, r := range runs {
		if v, ok := sample(r, metric); ok {
			out = append(out, v)
		}
	}
	return out
}

// Write prints the verdict as an aligned table or, with md, as a
// markdown table for CI job summaries.
func Write(w io.Writer, res Verdict, md bool) error {
	header := []string{"run", "check", "baseline", "current", "change", "p", "n", "verdict"}
	rows := [][]string{}
	for _, r := range res.Rows {
		verdict := "pass"
		if !r.Pass {
			verdict = "FAIL"
		}
		if r.Note != "" {
			verdict += ": " + r.Note
		}
		unit := unitOf(r.Check)
		rows = append(rows, []string{r.Run, r.Check, fnum(r.Baseline) + unit(r.Baseline), fnum(r.Current) + unit(r.Current), pct(r.Change),
			fnum(r.P), fmt.Sprintf("%d/%d", r.Samples[0], r.Samples[1]), verdict})
	}
	status := "PASS"
	if res.Failed {
		status = "FAIL"
	}
	if md {
		fmt.Fprintf(w, "### lockbench gate: %s\n\n", status)
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(header, " | "), strings.Repeat("---|", len(header)))
		for _, r := range rows {
			for i := range r {
				r[i] = strings.ReplaceAll(r[i], "|", `\|`)
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		}
		return nil
	}
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	line := func(cells []string) {
		for i, c := range cells {
			fmt.Fprintf(w, "%s%s  ", c, strings.Repeat(" ", widths[i]-len([]rune(c))))
		}
		fmt.Fprintln(w)
	}
	line(header)
	for _, r := range rows {
		line(r)
	}
	_, err := fmt.Fprintf(w, "gate: %s\n", status)
	return err
}

// unitOf is how a value of check is suffixed: " µs" after a latency's
// number, nothing else.
func unitOf(check string) func(v float64) string {
	name := check
	if i := strings.IndexAny(name, "<>=!"); i >= 0 { // a threshold's expression
		name = name[:i]
	}
	if i := strings.LastIndex(name, ":"); i >= 0 { // after a run glob
		name = name[i+1:]
	}
	if p, ok := resolveMetric(strings.TrimSpace(name)); ok && strings.HasPrefix(p, "latency_us.") {
		return func(v float64) string {
			if math.IsNaN(v) {
				return ""
			}
			return " µs"
		}
	}
	return func(float64) string { return "" }
}

func fnum(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v != 0 && math.Abs(v) < 1:
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func pct(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", v*100)
}
