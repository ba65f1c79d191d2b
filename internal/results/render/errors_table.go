package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// topErrors is how many messages per master WriteErrors prints.
const topErrors = 3

// writeErrors prints, under the table, what the runs' errors were: per
// master its top messages and, if it stopped answering, when. Nothing when
// no run had errors. A run repeated in rounds is named with its round.
func writeErrors(w io.Writer, runs []schema.Run) error {
	var b strings.Builder
	for _, r := range runs {
		name := r.Name
		if r.Repeat > 0 {
			name += fmt.Sprintf(" (round %d)", r.Repeat)
		}
		for _, m := range r.ErrorsByMaster {
			if b.Len() == 0 {
				b.WriteString("errors (most frequent messages per master, whole run incl. warmup; time from the window start):\n")
			}
			if m.Errors == 0 && m.StoppedS != nil { // a silent server: calls blocked, nothing returned
				fmt.Fprintf(&b, "  %s  master %d %s: no error returned\n", name, m.Index, m.Master)
				fmt.Fprintf(&b, "    STOPPED ANSWERING at %+.2fs: calls blocked without a reply or an error since\n", *m.StoppedS)
				continue
			}
			fmt.Fprintf(&b, "  %s  master %d %s: %d errors, first at %+.2fs\n", name, m.Index, m.Master, m.Errors, m.FirstS)
			if m.NeverAnswered {
				fmt.Fprintf(&b, "    NEVER ANSWERED: all %d commands failed\n", m.Errors)
			} else if m.StoppedS != nil {
				fmt.Fprintf(&b, "    STOPPED ANSWERING at %+.2fs: %d commands failed since, none answered\n", *m.StoppedS, m.StoppedFailures)
			}
			for i, e := range m.Messages {
				if i == topErrors {
					break
				}
				fmt.Fprintf(&b, "    %8d× %s\n", e.Count, e.Message)
			}
			if rest := m.Errors - topCount(m.Messages); rest > 0 {
				fmt.Fprintf(&b, "    %8d× (other messages)\n", rest)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func topCount(ms []schema.ErrorCount) int64 {
	var n int64
	for i, e := range ms {
		if i == topErrors {
			break
		}
		n += e.Count
	}
	return n
}
