package lab

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads"
)

// NoProgressError is runs that measured no progress: not one grant in the
// window, no completed cycle, or a stall (results.Run.Failures). Their
// figures are not a speed: a stalled run's throughput averages a stretch
// where nothing moved.
type NoProgressError struct{ Runs []string }

func (e *NoProgressError) Error() string {
	return fmt.Sprintf("no progress (no grant, no completed cycle, or a stall) in %v", e.Runs)
}

// noProgress names the runs that measured no progress (without stallsFail,
// only those without a grant or a completed cycle: a stall is then told,
// not failed), with one warning line per reason.
func noProgress(runs []results.Run, stallsFail bool) (names, warnings []string) {
	for _, r := range runs {
		f := r.Failures()
		if len(f) == 0 {
			continue
		}
		if stallsFail || r.NoGrant() || r.Counts.Cycles == 0 {
			names = append(names, r.Name)
		}
		for _, line := range f {
			warnings = append(warnings, r.Name+": "+line)
		}
		if u := r.Unfinished; u != nil && u.Stuck > 0 {
			warnings = append(warnings, fmt.Sprintf("%s: %d workers were still blocked in a call %v after the window ended and were left behind",
				r.Name, u.Stuck, workloads.ShutdownBudget))
		}
	}
	return names, warnings
}

// warn writes lines on log (nil: nowhere), one WARNING each.
func warn(log io.Writer, lines []string) {
	if log == nil {
		return
	}
	for _, line := range lines {
		fmt.Fprintln(log, "lockbench: WARNING:", strings.TrimSpace(line))
	}
}
