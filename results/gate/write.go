package gate

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/lockbench/lockbench/results/render"
)

// Write prints the verdict as an aligned table or, with md, as a markdown
// table for CI job summaries: each number with its unit, each comparison
// with its effect and interval, and the verdict's outcome last.
func Write(w io.Writer, res Verdict, md bool) error {
	header := []string{"run", "check", "baseline", "current", "effect [interval]", "tol", "p (Holm)", "n", "verdict"}
	rows := [][]string{}
	for _, r := range res.Rows {
		verdict := r.Decision.String()
		if r.Note != "" {
			verdict += ": " + r.Note
		}
		tol := "-"
		if !math.IsNaN(r.Tol) {
			tol = fmt.Sprintf("±%.0f %%", r.Tol*100)
		}
		rows = append(rows, []string{r.Run, r.Check, withUnit(r.Path, r.Baseline), withUnit(r.Path, r.Current),
			effect(r), tol, fnum(r.P), fmt.Sprintf("%d/%d", r.Samples[0], r.Samples[1]), verdict})
	}
	status := strings.ToUpper(res.Decision.String())
	var notes []string
	if len(res.Env) > 0 {
		notes = append(notes, "baseline from another environment: "+strings.Join(res.Env, "; "))
	}
	if res.Machine != "" {
		notes = append(notes, res.Machine)
	}
	if res.Rounds != "" {
		notes = append(notes, res.Rounds)
	}
	if md {
		fmt.Fprintf(w, "### lockbench gate: %s\n\n", status)
		for _, n := range notes {
			fmt.Fprintf(w, "%s\n\n", n)
		}
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
			if i == len(cells)-1 {
				fmt.Fprintln(w, c) // no padding after the last column
				break
			}
			fmt.Fprintf(w, "%s%s  ", c, strings.Repeat(" ", widths[i]-len([]rune(c))))
		}
	}
	line(header)
	for _, r := range rows {
		line(r)
	}
	for _, n := range notes {
		fmt.Fprintln(w, render.Wrap(n, render.TableWidth))
	}
	_, err := fmt.Fprintf(w, "gate: %s\n", status)
	return err
}

// effect is a row's relative change with its interval: "+12.3 % [+5.1, +19.0]".
func effect(r Row) string {
	if math.IsNaN(r.Change) {
		return "-"
	}
	s := pct(r.Change)
	if !math.IsNaN(r.Lo) {
		s += fmt.Sprintf(" [%s, %s]", strings.TrimSuffix(pct(r.Lo), " %"), pct(r.Hi))
	}
	return s
}

func pct(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case math.IsInf(v, 1):
		return "+∞ %"
	case math.IsInf(v, -1):
		return "-∞ %"
	}
	return fmt.Sprintf("%+.1f %%", v*100)
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

// withUnit prints v, a value of the metric at path, in its unit: latencies
// in µs, ms or s, rates per second, per-cycle costs per cycle, shares in %.
func withUnit(path string, v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case strings.HasPrefix(path, "latency_us.") || strings.HasPrefix(path, "service_us.") ||
		strings.HasPrefix(path, "validity_margin_us.") || path == "added_rtt_us":
		if strings.HasSuffix(path, ".count") {
			return fmt.Sprintf("%.0f samples", v)
		}
		return duration(v)
	case strings.HasSuffix(path, "cpu_us_per_cycle"):
		return fmt.Sprintf("%.1f µs/cycle", v)
	case strings.HasSuffix(path, "_per_cycle"):
		return fmt.Sprintf("%.2f /cycle", v)
	case strings.HasSuffix(path, "_per_s"):
		return fmt.Sprintf("%.0f /s", v)
	case strings.HasSuffix(path, "_rate"):
		return fmt.Sprintf("%.2f %%", v*100)
	case path == "duration_s":
		return fmt.Sprintf("%.1f s", v)
	case strings.HasSuffix(path, "_ms"):
		return fmt.Sprintf("%.1f ms", v)
	case path == "retries_per_acquire":
		return fmt.Sprintf("%.2f /acquire", v)
	case strings.HasPrefix(path, "counts.") || path == "missed_starts":
		return fmt.Sprintf("%.0f", v)
	}
	return fnum(v) // a ratio or index without unit (fairness, vs_sequential)
}

// duration prints µs as µs, ms or s.
func duration(us float64) string {
	switch a := math.Abs(us); {
	case a >= 1e6:
		return fmt.Sprintf("%.2f s", us/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.2f ms", us/1e3)
	}
	return fmt.Sprintf("%.0f µs", us)
}

// shortMetric is a metric's path as the gate names it: an op's latency by
// op and percentile, other fields by their last part.
func shortMetric(p string) string {
	if rest, ok := strings.CutPrefix(p, "latency_us."); ok {
		return rest
	}
	if i := strings.LastIndex(p, "."); i >= 0 && !strings.HasPrefix(p, "service_us.") {
		return p[i+1:]
	}
	return p
}
