package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// topErrors is how many messages per master writeErrors prints.
const topErrors = 3

// masterTally is one master's errors in one cell, over its rounds.
type masterTally struct {
	name, master    string
	index           int
	errors          int64
	rounds          int // rounds with errors
	messages        []schema.ErrorCount
	firstS          float64
	stoppedS        *float64
	stoppedFailures int64
	neverAnswered   bool
}

// writeErrors prints, under the table, what the runs' errors were: per
// cell and master (its rounds together) the top messages and whether it
// stopped answering; then one line with the totals, timeouts apart, and
// note (what they mean, from the caller) after it. These counts are every
// command of the whole run, warmup and releases included; the table's
// timeouts and errors columns count attempts in the measured window.
// Nothing when no run had errors.
func writeErrors(w io.Writer, runs []schema.Run, note string) error {
	tallies, rounds := tallyErrors(runs)
	if len(tallies) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("errors (most frequent messages per master, whole run incl. warmup; time from the window start):\n")
	var total, timeouts int64
	masters := map[string]bool{}
	for _, m := range tallies {
		total += m.errors
		masters[m.master] = true
		for _, e := range m.messages {
			if e.Timeout() {
				timeouts += e.Count
			}
		}
		name := m.name
		if rounds[m.name] > 1 {
			name += fmt.Sprintf(" (%d of %d rounds)", m.rounds, rounds[m.name])
		}
		if m.errors == 0 && m.stoppedS != nil { // a silent server: calls blocked, nothing returned
			fmt.Fprintf(&b, "  %s  master %d %s: no error returned\n", name, m.index, m.master)
			fmt.Fprintf(&b, "    STOPPED ANSWERING at %+.2fs: calls blocked without a reply or an error since\n", *m.stoppedS)
			continue
		}
		fmt.Fprintf(&b, "  %s  master %d %s: %d errors, first at %+.2fs\n", name, m.index, m.master, m.errors, m.firstS)
		if m.neverAnswered {
			fmt.Fprintf(&b, "    NEVER ANSWERED: all %d commands failed\n", m.errors)
		} else if m.stoppedS != nil {
			fmt.Fprintf(&b, "    STOPPED ANSWERING at %+.2fs: %d commands failed since, none answered\n", *m.stoppedS, m.stoppedFailures)
		}
		shown := int64(0)
		for i, e := range m.messages {
			if i == topErrors {
				break
			}
			fmt.Fprintf(&b, "    %8d× %s\n", e.Count, e.Message)
			shown += e.Count
		}
		if rest := m.errors - shown; rest > 0 {
			fmt.Fprintf(&b, "    %8d× (other messages)\n", rest)
		}
	}
	fmt.Fprintf(&b, "  in all: %d failed commands on %d master(s), %d of them timeouts\n", total, len(masters), timeouts)
	if note != "" {
		b.WriteString(Wrap(note, TableWidth) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tallyErrors sums each cell's errors per master over its rounds, in the
// order the runs first show them, and counts each cell's rounds.
func tallyErrors(runs []schema.Run) ([]*masterTally, map[string]int) {
	var out []*masterTally
	byKey := map[string]*masterTally{}
	rounds := map[string]int{}
	for _, r := range runs {
		rounds[r.Name]++
		for _, m := range r.ErrorsByMaster {
			key := fmt.Sprintf("%s\x00%d", r.Name, m.Index)
			t := byKey[key]
			if t == nil {
				t = &masterTally{name: r.Name, master: m.Master, index: m.Index, firstS: m.FirstS}
				byKey[key] = t
				out = append(out, t)
			}
			t.rounds++
			t.errors += m.Errors
			t.firstS = min(t.firstS, m.FirstS)
			t.neverAnswered = t.neverAnswered || m.NeverAnswered
			if m.StoppedS != nil && (t.stoppedS == nil || *m.StoppedS < *t.stoppedS) {
				t.stoppedS, t.stoppedFailures = m.StoppedS, m.StoppedFailures
			}
			t.messages = addCounts(t.messages, m.Messages)
		}
	}
	return out, rounds
}

// addCounts adds more's counts to sum by message, most counted first.
func addCounts(sum, more []schema.ErrorCount) []schema.ErrorCount {
	for _, e := range more {
		i := slices.IndexFunc(sum, func(s schema.ErrorCount) bool { return s.Message == e.Message })
		if i < 0 {
			sum = append(sum, e)
			continue
		}
		sum[i].Count += e.Count
		sum[i].Overcount += e.Overcount
	}
	slices.SortStableFunc(sum, func(a, b schema.ErrorCount) int { return int(b.Count - a.Count) })
	return sum
}
