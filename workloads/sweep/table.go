package sweep

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

// Table makes w write res as a sweep's result, as compare.Table does a
// compare's: the knees (WriteKnees) in place of the runs table, and
// sweep.json (the sweeps) into w's Out. When stdout is taken by CSV,
// benchmark lines or the JSON, the knees are printed on log now instead.
func Table(w *output.Writer, res result, c Config, log io.Writer) {
	w.Print = func(out io.Writer, _ []schema.Run) error { WriteKnees(out, res.Sweeps, c); return nil }
	w.Files = map[string]any{"sweep.json": res.Sweeps}
	if !w.OwnView() {
		WriteKnees(log, res.Sweeps, c)
	}
}

// WriteKnees prints each strategy's knee: the highest load that held c's
// SLO, the bracket the capacity lies in (up to the lowest load confirmed
// bad), the interval a rerun's knee lands in and the safe rate, the knee
// step's cycles/s and p99 with their spread over its measurements; or why
// no load held. A line says what was stepped; notes under the table say
// why an interval is wide, where the noise floor is, the USL fit of a
// closed loop and the plan for a target rate (curveNotes).
func WriteKnees(w io.Writer, sweeps []schema.Sweep, c Config) {
	c = c.withDefaults()
	fmt.Fprintln(w, render.Wrap(fmt.Sprintf("knee: highest load with %s p99 < %v and errors within %g%% of attempts; a failing step, "+
		"the step below it and each bisection step are judged on the median of %d measurements (their range in brackets); "+
		"the rerun interval is where a rerun's knee lands, from interleaved rounds of the steps around the knee "+
		"and, where measurements disagree, reruns of the search simulated on the pass curve they fit; "+
		"safe is the highest load every measurement of which met the SLO",
		c.Op, c.SLO, 100*c.maxErrorRate(), c.repeat()), render.TableWidth))
	fmt.Fprintln(w, render.Wrap(byText(c), render.TableWidth))
	var names []string
	for _, s := range sweeps {
		if len(s.Steps) > 0 {
			names = append(names, s.Name)
		}
	}
	labels, shared := rowLabels(names)
	head := "knee, capacity, rerun interval and safe load in " + unitName(c.By)
	if shared != "" {
		head = shared + "; " + head
	}
	fmt.Fprintln(w, render.Wrap(head, render.TableWidth))
	t := render.NewTable(w, render.TableWidth)
	t.Header("strategy", "knee", "capacity in", "rerun\ninterval", "safe", "cycles/s", c.Op+"\np99 µs")
	var notes []string
	for _, s := range sweeps {
		if len(s.Steps) == 0 {
			continue
		}
		if s.Knee < 0 {
			low := slices.MinFunc(s.Steps, func(a, b schema.SweepStep) int { return cmp.Compare(c.By.Load(a), c.By.Load(b)) })
			_ = t.Append(labels[s.Name], "none", "-", "-", "-", "-", "-")
			notes = append(notes, fmt.Sprintf("%s: every step failed, down to %s %g: %s", s.Name, c.By, c.By.Load(low), low.Reason))
			notes = append(notes, floorNote(s)...)
			continue
		}
		k := s.Steps[s.Knee]
		switch knee := c.By.Load(k); {
		case s.BadLoad == 0:
			notes = append(notes, s.Name+": no step failed; the capacity is above the highest load measured (raise --max-steps)")
		case s.BadLoad > wideBracket*knee:
			notes = append(notes, fmt.Sprintf("%s: the capacity bracket is wider than %.0f%% of the knee; more --refine narrows it",
				s.Name, 100*(wideBracket-1)))
		}
		_ = t.Append(labels[s.Name], fmt.Sprintf("%.0f", c.By.Load(k)), bareBracket(c.By.Load(k), s.BadLoad), bareInterval(s.KneeInterval),
			bareSafe(s.SafeRate), withRange("%.0f", k.CyclesPerS, k.CyclesPerSMin, k.CyclesPerSMax, k.Samples),
			withRange("%.0f", k.P99US, k.P99MinUS, k.P99MaxUS, k.Samples)+serviceText(k.ServiceP99US))
		notes = append(notes, curveNotes(s, c)...)
	}
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Header.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
		cfg.Row.Formatting.AutoWrap = tw.WrapNone
	})
	_ = t.Render()
	for _, n := range notes {
		fmt.Fprintln(w, render.Wrap(n, render.TableWidth))
	}
}

// rowLabels are the table's row names for the sweeps named names, and the
// cell they share said once above the table: names that differ in one
// "/"-separated part (the strategy, a sweep's --muxes) are labelled by
// that part, a lone sweep of a full cell name by its strategy (its third
// part); otherwise each keeps its whole name and nothing is shared.
func rowLabels(names []string) (map[string]string, string) {
	labels := make(map[string]string, len(names))
	for _, n := range names {
		labels[n] = n
	}
	if len(names) == 0 {
		return labels, ""
	}
	first := strings.Split(names[0], "/")
	at := -1
	switch {
	case len(names) == 1 && len(first) >= 4:
		at = 2
	case len(names) > 1:
		for _, n := range names[1:] {
			p := strings.Split(n, "/")
			if len(p) != len(first) {
				return labels, ""
			}
			for i := range p {
				if p[i] != first[i] && at != i {
					if at >= 0 {
						return labels, ""
					}
					at = i
				}
			}
		}
	}
	if at < 0 {
		return labels, ""
	}
	for _, n := range names {
		labels[n] = strings.Split(n, "/")[at]
	}
	shared := slices.Clone(first)
	shared[at] = "<strategy>"
	if len(names) == 1 {
		return labels, "cell " + names[0]
	}
	return labels, "cells " + strings.Join(shared, "/")
}

// unitName is what a sweep's loads are counted in.
func unitName(by By) string {
	if by == ByWorkers {
		return "workers"
	}
	return "cycles/s offered"
}

// bareBracket is where the capacity lies: from the knee up to the lowest
// load confirmed bad, and that width as a share of the knee; bareInterval
// a knee interval, "-" when none was measured; bareSafe a safe load,
// "none" for 0. The line above the table gives their unit.
func bareBracket(knee, bad float64) string {
	if bad == 0 {
		return fmt.Sprintf("≥ %.0f", knee)
	}
	return fmt.Sprintf("%.0f–%.0f (+%.0f%%)", knee, bad, 100*(bad/knee-1))
}

func bareInterval(iv []float64) string {
	if len(iv) != 2 {
		return "-"
	}
	return fmt.Sprintf("%.0f–%.0f", iv[0], iv[1])
}

func bareSafe(safe float64) string {
	if safe == 0 {
		return "none"
	}
	return fmt.Sprintf("%.0f", safe)
}

// wideBracket: a bad load over this times the knee leaves a load well
// above the knee (1.3×) that may still hold; the table says so.
const wideBracket = 1.3

// byText says what a sweep by c.By measures and what its knee means.
func byText(c Config) string {
	if c.By == ByWorkers {
		return "by workers: a closed loop, each worker starts its next cycle when the last ends; the knee is a concurrency " +
			"and its cycles/s what that many workers achieved. Latency counts from each cycle's actual start, so a queue " +
			"never forms: the cycles/s is more than an open loop sustains at the same SLO (--by rate gives that)."
	}
	return fmt.Sprintf("by rate: an open loop, cycles started on a fixed schedule by %d workers whatever the latency; the knee is an "+
		"offered rate (cycles/s) the cell sustains. Latency counts from each cycle's intended start, so queueing "+
		"shows: the rate a capacity plan can promise (--by workers gives the concurrency instead).", c.Base.Workload.Workers)
}

// loadText is a load in its unit.
func loadText(by By, load float64) string {
	if by == ByWorkers {
		return fmt.Sprintf("%.0f workers", load)
	}
	return fmt.Sprintf("%.0f/s", load)
}

// serviceText is a step's service-time p99 under its latency p99, where
// an open loop measured one: the gap between them is queueing.
func serviceText(us float64) string {
	if us == 0 {
		return ""
	}
	return fmt.Sprintf("\nservice %.0f", us)
}

// withRange is a median in format f and, of more than one sample, its
// range.
func withRange(f string, median, lo, hi float64, samples int) string {
	if samples < 2 {
		return fmt.Sprintf(f, median)
	}
	return fmt.Sprintf(f+" ["+f+"–"+f+"]", median, lo, hi)
}

// StepLines is an Observers.Step that prints each step's line (StepLine)
// of op on w; nil (no step observer) when w is nil.
func StepLines(w io.Writer, op string) func(run string, st schema.SweepStep) {
	if w == nil {
		return nil
	}
	return func(run string, st schema.SweepStep) { fmt.Fprintln(w, stepLine(run, op, st)) }
}

// stepLine is one measured step of run as the progress of a sweep shows
// it: load reached, p99 of op, and the verdict.
func stepLine(run, op string, st schema.SweepStep) string {
	v := "ok"
	if !st.OK {
		v = "over: " + st.Reason
	}
	service := ""
	if st.ServiceP99US > 0 {
		service = fmt.Sprintf(" (service %.0f µs)", st.ServiceP99US)
	}
	spread := ""
	if st.Samples > 1 && st.P99MaxUS > 0 {
		spread = fmt.Sprintf(" [%.0f–%.0f]", st.P99MinUS, st.P99MaxUS)
	}
	return fmt.Sprintf("step %s: %.0f cycles/s, %s p99 %.0f µs%s%s: %s", run, st.CyclesPerS, op, st.P99US, spread, service, v)
}
