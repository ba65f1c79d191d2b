package rundir

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// ErrDuplicateRun: the same run was given to merge twice (the same file,
// a copy of it, or a merged result together with one of its inputs).
var ErrDuplicateRun = errors.New("results: the same run twice")

// runIDs is the identities r stands for: its own, or those it was merged from.
func runIDs(s *schema.Summary, r schema.Run) []string {
	// A merged run lists the identities of the runs it was made from, so
	// merging it again with one of them is caught too.
	if len(r.MergedIDs) > 0 {
		return r.MergedIDs
	}
	return []string{schema.RunID(s, r)}
}

// checkDistinct refuses inputs that hold a run twice: merging it would
// count every cycle of it twice. Runs are checked against the earlier
// inputs, not within one input.
func checkDistinct(dirs []*RunDir) error {
	where := map[string]string{}
	for _, d := range dirs {
		var mine []string
		for _, r := range d.Summary.Runs {
			ids := runIDs(d.Summary, r)
			sort.Strings(ids)
			for _, id := range ids {
				if prev, ok := where[id]; ok {
					return fmt.Errorf("%w: run %q (started %s on %q) is in both %s and %s",
						ErrDuplicateRun, r.Name, d.Summary.Started.UTC().Format(time.RFC3339Nano), d.Summary.Host.Hostname, prev, d.label())
				}
			}
			mine = append(mine, ids...)
		}
		for _, id := range mine {
			where[id] = d.label()
		}
	}
	return nil
}

func (d *RunDir) label() string {
	if d.Path != "" {
		return d.Path
	}
	return d.Dir
}
