package lab

import (
	"fmt"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads"
)

// NoProgressError is runs that measured no progress: not one grant in the
// window, no completed cycle, or a stall (schema.Run.Failures). Their
// figures are not a speed: a stalled run's throughput averages a stretch
// where nothing moved.
type NoProgressError struct{ Runs []string }

func (e *NoProgressError) Error() string {
	return fmt.Sprintf("no progress (no grant, no completed cycle, or a stall) in %v", e.Runs)
}

// noProgress names the runs that measured no progress (without stallsFail,
// only those without a grant or a completed cycle: a stall is then told,
// not failed), with one warning line per reason.
func noProgress(runs []schema.Run, stallsFail bool) (names, warnings []string) {
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

// silentServer is run's errors with, for a backend whose Locker does not
// say which server failed, the backend named as having stopped answering
// when its run ended in a stall in which no attempt ended (every worker
// blocked inside a call: a frozen server whose client waits without a
// timeout), or every attempt that ended timed out (a client that bounds
// its calls by seconds: PostgreSQL's lock_timeout plus a second, so a
// frozen server makes a handful of timeouts, too few for the error log's
// own rule), or workers were left stuck. A frozen ZooKeeper server returns
// no error, so the error log alone never names it.
func silentServer(run schema.Run, backend string) []schema.MasterErrors {
	var last schema.Stall
	if n := len(run.Stalls); n > 0 {
		last = run.Stalls[n-1]
	}
	stuck := run.Unfinished != nil && run.Unfinished.Stuck > 0
	timedOut := last.AtEnd && last.Cause == schema.CauseTimeouts && last.Timeouts == last.Attempts
	if !(last.AtEnd && last.Cause == schema.CauseNoAttempts) && !timedOut && !stuck {
		return run.ErrorsByMaster
	}
	out := append([]schema.MasterErrors(nil), run.ErrorsByMaster...)
	if len(out) == 0 {
		out = append(out, schema.MasterErrors{Master: backend, Index: 1})
	}
	m := &out[0]
	if m.StoppedS == nil {
		at := last.Start.Seconds()
		m.StoppedS = &at
		if timedOut {
			m.StoppedFailures = last.Timeouts
		}
	}
	return out
}
