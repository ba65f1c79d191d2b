package compare

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/stats"
)

// writeAnswers prints each Answer: a header naming the workload and the
// interval's level, the cells with rank ("1=" when shared), median
// cycles/s and interval, then the answer line (AnswerLine). The budget
// and the machine's state (Machine, when probed) head the whole.
func writeAnswers(w io.Writer, answers []Answer, b budget, m *Machine) {
	if len(answers) == 0 {
		return
	}
	fmt.Fprintf(w, "\nanswers (budget: %s)\n", b)
	if m != nil {
		fmt.Fprintln(w, render.Hang("machine:", m.String(), render.TableWidth))
	}
	nameW := 0
	for _, a := range answers {
		for _, s := range a.Standings {
			nameW = max(nameW, len(s.Cell))
		}
	}
	for _, a := range answers {
		fmt.Fprintf(w, "%s: rank, median cycles/s, %s, %s\n", title(a), levelText(a), rerunText(a))
		for _, s := range a.Standings {
			rank := fmt.Sprint(s.Rank)
			if s.Tied {
				rank += "="
			}
			fmt.Fprintf(w, "  %-4s %-*s %9.0f  %-13s  %s\n", rank, nameW, s.Cell, s.Rate.Median, span(s.Rate, "%.0f", ""), rangeText(s.Rerun))
		}
		fmt.Fprintln(w, render.Hang("  answer:", answerLine(a), render.TableWidth))
	}
}

// title names an answer's workload, its masters count when a compare had
// several and its added round trip when there was one.
func title(a Answer) string {
	t := a.Workload
	if a.Masters > 0 {
		t += fmt.Sprintf(" on %d masters", a.Masters)
	}
	if a.AddedRTTUS > 0 {
		t += fmt.Sprintf(" at +%v round trip", time.Duration(a.AddedRTTUS*1e3))
	}
	return t
}

// levelText says what the intervals of a are: their coverage and, below
// 95 %, that the rounds were few.
func levelText(a Answer) string {
	if a.Rounds < 2 {
		return "no interval (1 round)"
	}
	level := 1.0
	for _, s := range a.Standings {
		level = min(level, s.Rate.Level)
	}
	if level >= stats.Confidence {
		return "its 95 % interval"
	}
	return fmt.Sprintf("%.0f %% interval: the range of %d rounds (6 rounds give 95 %%)", 100*level, a.Rounds)
}

// rerunText says what the rerun ranges of a are: the least chance any of
// them gives a rerun's median.
func rerunText(a Answer) string {
	if a.Rounds < 2 {
		return "no rerun range"
	}
	level := 1.0
	for _, s := range a.Standings {
		level = min(level, s.Rerun.Level)
	}
	// Floored to a tenth of a percent: 99.96 % is said as 99.9, never 100.
	pct := math.Floor(1000*level) / 10
	return fmt.Sprintf("where a rerun's median lands (≥ %s %%)", strconv.FormatFloat(pct, 'f', -1, 64))
}

// rangeText is a rerun range "lo–hi", or nothing without one.
func rangeText(r Range) string {
	if math.IsNaN(r.Lo) {
		return ""
	}
	return fmt.Sprintf("%.0f–%.0f", r.Lo, r.Hi)
}

// maxNamed is the most tied leaders an answer line names.
const maxNamed = 3

// answerLine is what a says: the top cell and by how much it leads the
// next cell (the paired ratio and its interval), or that the top cells are
// indistinguishable at this budget, or that the rounds were too few for
// an answer; a ranked answer ends with how firmly its rounds carry it
// (Holds).
func answerLine(a Answer) string {
	if len(a.Standings) < 2 {
		return "one cell, nothing to compare"
	}
	if a.Rounds < minRounds {
		return fmt.Sprintf("none at %d round(s) per cell: an interval needs --repeat %d or more (6 for 95 %%)", a.Rounds, minRounds)
	}
	first, second := a.Standings[0].Cell, a.Standings[1].Cell
	lead := ""
	if a.Lead != nil {
		lead = fmt.Sprintf("%.2f× %s (%s, paired by round)", a.Lead.Median, second, span(*a.Lead, "%.2f", "×"))
	}
	if !a.Tie {
		return fmt.Sprintf("%s is fastest: %s", first, lead) + holdsText(a)
	}
	var leaders []string
	for _, s := range a.Standings {
		if s.Rank == 1 {
			leaders = append(leaders, s.Cell)
		}
	}
	line := fmt.Sprintf("indistinguishable at this budget: %s (no lead over %.0f %% shown, paired by round)",
		named(leaders), 100*tieWithin)
	if a.Lead == nil {
		return line + holdsText(a)
	}
	line += fmt.Sprintf("; %s ran %s", first, lead)
	if a.Lead.Excludes(1) && a.Lead.Enough(stats.Confidence) {
		line += "; the rounds lean to " + first + ", more rounds (--repeat) may separate them"
	}
	return line + holdsText(a)
}

// holdsText is "; " and what a.Holds says, or nothing without it.
func holdsText(a Answer) string {
	if a.Holds == nil {
		return ""
	}
	return "; " + a.Holds.String()
}

// named lists cells by name, the first maxNamed of them and how many more.
func named(cells []string) string {
	if len(cells) > maxNamed {
		cells = append(slices.Clone(cells[:maxNamed]), fmt.Sprintf("and %d more", len(cells)-maxNamed))
	}
	return strings.Join(cells, ", ")
}

// span is an interval "lo–hi" in format f, then unit.
func span(ci stats.MedianCI, f, unit string) string {
	if ci.N < 2 {
		return "no interval"
	}
	return fmt.Sprintf(f+"–"+f+unit, ci.Lo, ci.Hi)
}
