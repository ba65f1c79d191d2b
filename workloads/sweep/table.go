package sweep

import (
	"fmt"
	"io"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
	"github.com/lockbench/lockbench/results/output"
)

// Table makes w write res as a sweep's result, as compare.Table does a
// compare's: the knees (WriteKnees) in place of the runs table, and
// sweep.json (the sweeps) into w's Out. When stdout is taken by CSV,
// benchmark lines or the JSON, the knees are printed on log now instead.
func Table(w *output.Writer, res Result, c Config, log io.Writer) {
	w.Print = func(out io.Writer, _ []results.Run) error { WriteKnees(out, res.Sweeps, c); return nil }
	w.Files = map[string]any{"sweep.json": res.Sweeps}
	if (w.Format != "" && w.Format != output.Table) || w.JSON == "-" {
		WriteKnees(log, res.Sweeps, c)
	}
}

// WriteKnees prints each strategy's knee: the highest load that held c's
// SLO, or why none did.
func WriteKnees(w io.Writer, sweeps []capacity.Sweep, c Config) {
	fmt.Fprintf(w, "knee: highest load with %s p99 < %v and no errors\n", c.Op, c.SLO)
	t := results.NewTable(w, results.TableWidth)
	t.Header("strategy", "knee", "cycles/s", c.Op+"\np99 µs", "note")
	for _, s := range sweeps {
		if len(s.Steps) == 0 {
			continue
		}
		if s.Knee < 0 {
			last := s.Steps[len(s.Steps)-1]
			_ = t.Append(s.Name, "none", "-", "-", fmt.Sprintf("every step failed, down to %s %g: %s", c.By, c.By.Load(last), last.Reason))
			continue
		}
		k := s.Steps[s.Knee]
		load := fmt.Sprintf("%.0f/s", k.Rate)
		if c.By == ByWorkers {
			load = fmt.Sprintf("%d workers", k.Workers)
		}
		_ = t.Append(s.Name, load, fmt.Sprintf("%.0f", k.CyclesPerS), fmt.Sprintf("%.0f", k.P99US), "")
	}
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Header.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}
		cfg.Row.Formatting.AutoWrap = tw.WrapNormal
	})
	_ = t.Render()
}

// StepLines is an Observers.Step that prints each step's line (StepLine)
// of op on w; nil (no step observer) when w is nil.
func StepLines(w io.Writer, op string) func(run string, st capacity.Step) {
	if w == nil {
		return nil
	}
	return func(run string, st capacity.Step) { fmt.Fprintln(w, StepLine(run, op, st)) }
}

// StepLine is one measured step of run as the progress of a sweep shows
// it: load reached, p99 of op, and the verdict.
func StepLine(run, op string, st capacity.Step) string {
	v := "ok"
	if !st.OK {
		v = "over: " + st.Reason
	}
	return fmt.Sprintf("step %s: %.0f cycles/s, %s p99 %.0f µs: %s", run, st.CyclesPerS, op, st.P99US, v)
}
