package sweep

import (
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockbench/lockbench/internal/results/capacity"
	"github.com/lockbench/lockbench/internal/results/output"
	"github.com/lockbench/lockbench/internal/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

// Table makes w write res as a sweep's result, as compare.Table does a
// compare's: the knees (WriteKnees) in place of the runs table, and
// sweep.json (the sweeps) into w's Out. When stdout is taken by CSV,
// benchmark lines or the JSON, the knees are printed on log now instead.
func Table(w *output.Writer, res result, c Config, log io.Writer) {
	w.Print = func(out io.Writer, _ []schema.Run) error { WriteKnees(out, res.Sweeps, c); return nil }
	w.Files = map[string]any{"sweep.json": res.Sweeps}
	if (w.Format != "" && w.Format != output.Table) || w.JSON == "-" {
		WriteKnees(log, res.Sweeps, c)
	}
}

// WriteKnees prints each strategy's knee: the highest load that held c's
// SLO, the bracket the capacity lies in (up to the lowest load confirmed
// bad), the knee step's cycles/s and p99 with their spread over its
// measurements; or why no load held. A line says what was stepped.
func WriteKnees(w io.Writer, sweeps []capacity.Sweep, c Config) {
	c = c.withDefaults()
	fmt.Fprintln(w, render.Wrap(fmt.Sprintf("knee: highest load with %s p99 < %v and errors within %g%% of attempts; a failing step, "+
		"the step below it and each bisection step are judged on the median of %d measurements (their range in brackets)",
		c.Op, c.SLO, 100*c.maxErrorRate(), c.repeat()), render.TableWidth))
	fmt.Fprintln(w, render.Wrap(byText(c), render.TableWidth))
	t := render.NewTable(w, render.TableWidth)
	t.Header("strategy", "knee", "capacity in", "cycles/s", c.Op+"\np99 µs")
	var notes []string
	for _, s := range sweeps {
		if len(s.Steps) == 0 {
			continue
		}
		if s.Knee < 0 {
			last := s.Steps[len(s.Steps)-1]
			_ = t.Append(s.Name, "none", "-", "-", "-")
			notes = append(notes, fmt.Sprintf("%s: every step failed, down to %s %g: %s", s.Name, c.By, c.By.Load(last), last.Reason))
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
		_ = t.Append(s.Name, loadText(c.By, c.By.Load(k)), bracketText(c.By, c.By.Load(k), s.BadLoad),
			withRange("%.0f", k.CyclesPerS, k.CyclesPerSMin, k.CyclesPerSMax, k.Samples),
			withRange("%.0f", k.P99US, k.P99MinUS, k.P99MaxUS, k.Samples))
	}
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Header.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}
		cfg.Row.Formatting.AutoWrap = tw.WrapNone
	})
	_ = t.Render()
	for _, n := range notes {
		fmt.Fprintln(w, render.Wrap(n, render.TableWidth))
	}
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

// bracketText is where the capacity lies: from the knee up to the lowest
// load confirmed bad, and that width as a share of the knee.
func bracketText(by By, knee, bad float64) string {
	if bad == 0 {
		return fmt.Sprintf("≥ %s", loadText(by, knee))
	}
	if by == ByWorkers {
		return fmt.Sprintf("%.0f–%.0f workers (+%.0f%%)", knee, bad, 100*(bad/knee-1))
	}
	return fmt.Sprintf("%.0f–%.0f/s (+%.0f%%)", knee, bad, 100*(bad/knee-1))
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
func StepLines(w io.Writer, op string) func(run string, st capacity.Step) {
	if w == nil {
		return nil
	}
	return func(run string, st capacity.Step) { fmt.Fprintln(w, stepLine(run, op, st)) }
}

// stepLine is one measured step of run as the progress of a sweep shows
// it: load reached, p99 of op, and the verdict.
func stepLine(run, op string, st capacity.Step) string {
	v := "ok"
	if !st.OK {
		v = "over: " + st.Reason
	}
	return fmt.Sprintf("step %s: %.0f cycles/s, %s p99 %.0f µs: %s", run, st.CyclesPerS, op, st.P99US, v)
}
