package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// stallCell is a run's stalls in a table: the longest, and how many when
// more than one (the notes under the table say when and why); "no grant"
// for a window without any.
func stallCell(r schema.Run, _ TableOptions) string {
	switch {
	case r.NoGrant():
		return "no grant"
	case !r.Stalled():
		return "-"
	case len(r.Stalls) > 1:
		return fmt.Sprintf("%.1fs ×%d", r.LongestStall().Duration.Seconds(), len(r.Stalls))
	}
	return fmt.Sprintf("%.1fs", r.LongestStall().Duration.Seconds())
}

// writeStalls prints, under the table, each run that measured no progress
// (Failures) and its stalls: when, how long, why, and what the attempts
// during it ended as. Nothing when every run made progress.
func writeStalls(w io.Writer, runs []schema.Run) error {
	var b strings.Builder
	for _, r := range runs {
		if len(r.Failures()) == 0 {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("! no progress (times from the window start; these figures are not a speed):\n")
		}
		name := r.Name
		if r.Repeat > 0 {
			name += fmt.Sprintf(" (round %d)", r.Repeat)
		}
		fmt.Fprintf(&b, "  %s:\n", name)
		if !r.Stalled() {
			fmt.Fprintf(&b, "    %s\n", r.Failures()[0])
		}
		if u := r.Unfinished; u != nil && u.Stuck > 0 {
			fmt.Fprintf(&b, "    %d workers still blocked in a call when the shutdown budget ran out\n", u.Stuck)
		}
		for _, s := range r.Stalls {
			end := ""
			if s.AtEnd {
				end = " to the window's end"
			}
			fmt.Fprintf(&b, "    STALLED %.2fs from %+.2fs%s: %s (%d failed releases)\n",
				s.Duration.Seconds(), s.Start.Seconds(), end, s.Cause, s.ReleaseErrors)
			fmt.Fprintf(&b, "      attempts during it: %d (%d busy, %d split, %d timeouts, %d errors)\n",
				s.Attempts, s.Busy, s.SplitBrain, s.Timeouts, s.Errors)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// anyRun is a column's "when": some run satisfies f.
func anyRun(f func(schema.Run) bool) func([]schema.Run, TableOptions) bool {
	return func(runs []schema.Run, _ TableOptions) bool {
		for _, r := range runs {
			if f(r) {
				return true
			}
		}
		return false
	}
}
