package compare

import (
	"fmt"
	"io"
	"os"
	"slices"
	"sort"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
	"github.com/lockbench/lockbench/workloads/lab"
)

// vsSequential is each run's ratio to the sequential run of its group by
// run name (the table's "vs seq" column); runs without one are left out.
// Of runs repeated in rounds it is the median ratio: that of the medians.
func vsSequential(runs []schema.Run) map[string]float64 {
	ratios := map[string]float64{}
	for _, r := range stats.MedianRuns(runs) {
		if v := r.VsSequential; v != nil {
			ratios[r.Name] = *v
		}
	}
	return ratios
}

// Write writes sum, the summary of r (Summary), through w: compare's table
// (Table), w's JSON file and Out directory with the cells' interval logs,
// the answers of a compare in rounds (Answers, WriteAnswers: under the
// table, and answers.json in Out), then the rankings by round trip
// (WriteRankings) unless stdout holds Go benchmark lines or the JSON.
func (r Result) Write(w output.Writer, sum *schema.Summary) error {
	Table(&w, sum.Runs, r.CeilingRates())
	answers := Answers(sum.Runs)
	summary := w.Below
	w.Below = func(out io.Writer) {
		summary(out)
		writeGaps(out, r.Gaps)
		if !repeated(sum.Runs) {
			fmt.Fprintln(out, "\nanswers: one round per cell, so no ranking with confidence; --repeat 6 or more ranks the cells with 95 % intervals")
			return
		}
		writeAnswers(out, answers, r.Budget(), machineOf(sum.Runs))
	}
	w.Files = map[string]any{}
	if repeated(sum.Runs) {
		w.Files["answers.json"] = answers
	}
	if len(r.Gaps) > 0 {
		w.Files["gaps.json"] = r.Gaps
	}
	if err := w.Write(sum, lab.Logs(r.Cells)); err != nil {
		return err
	}
	if w.OwnView() {
		stdout := w.Stdout
		if stdout == nil {
			stdout = os.Stdout
		}
		writeRankings(stdout, rankingsOf(sum.Runs, r.Config.RTTs.RTTs()))
		if repeated(sum.Runs) {
			writeRecommendations(stdout, answers)
		}
	}
	return nil
}

// writeRecommendations ends a compare's stdout: one plain line per
// workload (Recommend), the detail above it.
func writeRecommendations(w io.Writer, answers []Answer) {
	if len(answers) == 0 {
		return
	}
	fmt.Fprintln(w, "\nrecommendation (from the answers above):")
	for _, a := range answers {
		fmt.Fprintln(w, render.Hang("  "+title(a)+":", Recommend(a), render.TableWidth))
	}
}

// Table makes w print compare's table: each row with its ratio to its
// sequential row ("vs seq") and, under the table, WriteSummary.
func Table(w *output.Writer, runs []schema.Run, ceilings map[int]float64) {
	w.TableOptions.Ratios, w.TableOptions.RatioName = vsSequential(runs), "vs seq"
	w.Below = func(out io.Writer) { writeSummary(out, runs, ceilings) }
}

// writeSummary is the compare's own short view under the table:
// per row its throughput, ratio to sequential, heap allocations per cycle
// (whole process) and, with --ceiling, its fraction of the ceiling. Runs
// repeated in rounds are one line each, their median (stats.MedianRun).
func writeSummary(w io.Writer, runs []schema.Run, ceilings map[int]float64) {
	runs = stats.MedianRuns(runs)
	counts := make([]int, 0, len(ceilings))
	for m := range ceilings {
		counts = append(counts, m)
	}
	sort.Ints(counts)
	for _, m := range counts {
		cost := ""
		for _, r := range runs {
			if c := r.CeilingCost; c != nil && r.Masters == m {
				cost = "; " + costText(c)
				break
			}
		}
		fmt.Fprintf(w, "ceiling (redis-benchmark -P 16, %d masters): %.0f cycles/s%s\n", m, ceilings[m], cost)
	}
	// Per cycle: allocations, client and server CPU µs, client write
	// syscalls. The name column is as wide as the longest name, so the list
	// fits 100 columns with the ceiling column.
	nameW := len("run")
	for _, r := range runs {
		nameW = max(nameW, len(r.Name))
	}
	fmt.Fprintf(w, "%-*s %8s %7s %7s %9s %9s %7s", nameW, "run", "cycles/s", "vs seq", "allocs", "client µs", "server µs", "writes")
	delayed := slices.ContainsFunc(runs, func(r schema.Run) bool { return r.Cost != nil && r.Cost.DelayCPUUSPerCycle > 0 })
	if delayed { // the delay line's own CPU, and how busy the machine was
		fmt.Fprintf(w, " %8s %6s", "delay µs", "busy")
	}
	if len(ceilings) > 0 {
		fmt.Fprintf(w, " %8s", "ceiling")
	}
	fmt.Fprintln(w)
	for _, r := range runs {
		ratio, ofC := "-", "-"
		if v := r.VsSequential; v != nil {
			ratio = fmt.Sprintf("%.2f×", *v)
		}
		if v := r.OfCeiling; v != nil {
			ofC = fmt.Sprintf("%.1f%%", 100**v)
		}
		fmt.Fprintf(w, "%-*s %8.0f %7s %7.1f %s", nameW, r.Name, r.Throughput.CyclesPerS, ratio, r.AllocsPerCycle, costCells(r.Cost))
		if delayed {
			fmt.Fprint(w, delayCells(r.Cost))
		}
		if len(ceilings) > 0 {
			fmt.Fprintf(w, " %8s", ofC)
		}
		fmt.Fprintln(w)
	}
}

// costCells are a run's client and server CPU µs and write syscalls per
// cycle (server marked * when read from INFO cpu).
func costCells(c *schema.Cost) string {
	if c == nil {
		return fmt.Sprintf("%9s %9s %7s", "-", "-", "-")
	}
	server := "-"
	if c.ServerCPUSource != "" {
		server = fmt.Sprintf("%.1f", c.ServerCPUUSPerCycle)
		if c.ServerCPUSource == procstat.ServerCPUInfo {
			server += "*"
		}
	}
	return fmt.Sprintf("%9.1f %9s %7.2f", c.ClientCPUUSPerCycle, server, c.ClientWritesPerCycle)
}

// delayCells are the delay line's CPU µs per cycle and the share of the
// machine's cores busy over the window ("-" where unknown).
func delayCells(c *schema.Cost) string {
	d, b := "-", "-"
	if c != nil && c.DelayCPUUSPerCycle > 0 {
		d = fmt.Sprintf("%.1f", c.DelayCPUUSPerCycle)
	}
	if c != nil && c.MachineCPUBusy > 0 {
		b = fmt.Sprintf("%.0f%%", 100*c.MachineCPUBusy)
	}
	return fmt.Sprintf(" %8s %6s", d, b)
}

// writeRankings shows, per workload, each Redlock cell's rank and cycles/s at
// every added round trip, in the order of the first.
func writeRankings(w io.Writer, rankings []ranking) {
	for _, rk := range rankings {
		fmt.Fprintf(w, "ranking by added round trip (%s): rank. cycles/s\n%-28s", rk.Workload, "cell")
		for _, d := range rk.RTTs {
			fmt.Fprintf(w, " %16s", "rtt "+d.String())
		}
		fmt.Fprintln(w)
		for _, c := range rk.Cells {
			fmt.Fprintf(w, "%-28s", c.Cell)
			for i := range rk.RTTs {
				fmt.Fprintf(w, " %16s", fmt.Sprintf("%d. %.0f", c.Rank[i], c.CyclesPerS[i]))
			}
			fmt.Fprintln(w)
		}
	}
}
