package lab

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sort"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/schema"
)

// stoppedAfter and stoppedFailures: a master counts as having stopped
// answering when its commands failed, none answered, for this long and this
// many times up to the end of the run. An overloaded master that still
// answers now and then is not named.
const (
	stoppedAfter    = 500 * time.Millisecond
	stoppedFailures = 5
)

// errorCapture keeps the error messages of a backend whose Locker does not
// say which server failed (etcd, peer libraries): every attempt that ended
// in an error or a timeout is counted under the backend's name. Successful
// attempts cost one comparison.
type errorCapture struct {
	drivers.Locker
	log *drivers.ErrorLog
}

func (c errorCapture) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	lease, a, err := c.Locker.Lock(ctx, key)
	if err != nil {
		switch drivers.Classify(ctx, a, err) {
		case schema.Error, schema.Timeout:
			c.log.Failed(0, err)
		}
	} else {
		c.log.Answered(0)
	}
	return lease, a, err
}

func (c errorCapture) Errors() []drivers.MasterReport { return c.log.Report() }

// withErrorLog returns l with per-master error messages: l itself when it
// keeps them (redlock), else l wrapped in an errorCapture.
func withErrorLog(l drivers.Locker) (drivers.Locker, drivers.ErrorReporter) {
	if r, ok := l.(drivers.ErrorReporter); ok {
		return l, r
	}
	c := errorCapture{Locker: l, log: drivers.NewErrorLog(1)}
	return c, c
}

// masterErrors turns an error report into the run's typed field: masters
// named by label (their addresses, or the backend), times from the window
// start, a master still failing at end for long enough named as stopped.
func masterErrors(rep []drivers.MasterReport, labels []string, window, end time.Time) []schema.MasterErrors {
	var out []schema.MasterErrors
	for _, m := range rep {
		label := fmt.Sprintf("master %d", m.Master+1)
		if m.Master < len(labels) {
			label = labels[m.Master]
		}
		e := schema.MasterErrors{Master: label, Index: m.Master + 1, Errors: m.Errors, Other: m.Other,
			FirstS: m.First.Sub(window).Seconds(), NeverAnswered: m.NeverAnswered}
		for _, c := range m.Messages {
			e.Messages = append(e.Messages, schema.ErrorCount(c))
		}
		sort.SliceStable(e.Messages, func(i, j int) bool { return e.Messages[i].Count > e.Messages[j].Count })
		if !m.FailingSince.IsZero() && end.Sub(m.FailingSince) >= stoppedAfter && m.Streak >= stoppedFailures {
			s := m.FailingSince.Sub(window).Seconds()
			e.StoppedS, e.StoppedFailures = &s, m.Streak
		}
		out = append(out, e)
	}
	return out
}

// mostlyFailed names the runs where more than half the attempts failed
// (errors and timeouts), with a warning line for each; a run whose
// failures are mostly timeouts is told its --workers exceed what its
// masters and this machine serve within nodeTimeout (--node-timeout),
// unless the run injected faults (faulted), which explain them.
func mostlyFailed(runs []schema.Run, nodeTimeout time.Duration, faulted bool) (names, warnings []string) {
	for _, r := range runs {
		c := r.Counts
		if !c.MostlyFailed() {
			continue
		}
		failed, why := c.Errors+c.Timeouts, ""
		if top := r.TopError(); top != "" {
			why = fmt.Sprintf(" (most common: %s)", top)
		}
		warnings = append(warnings, fmt.Sprintf("%s: %.1f %% of %d attempts failed: %d errors, %d timeouts%s; the errors are listed under the table",
			r.Name, 100*float64(failed)/float64(c.Attempts), c.Attempts, c.Errors, c.Timeouts, why))
		if 2*c.Timeouts > c.Attempts && !faulted { // an injected fault explains its own timeouts
			warnings = append(warnings, fmt.Sprintf("%s: --workers %d is more than %d masters and this %d-CPU machine serve within --node-timeout %v: lower --workers (or raise --node-timeout)",
				r.Name, r.Workers, r.Masters, runtime.NumCPU(), nodeTimeout))
		}
		names = append(names, r.Name)
	}
	return names, warnings
}

// metricMasterErrors is the error log's running per-master counts, named as
// the errors block under the table names them.
func metricMasterErrors(log drivers.ErrorReporter, addrs []string, backend string) []schema.MasterErrors {
	rep := log.Errors()
	out := make([]schema.MasterErrors, 0, len(rep))
	for _, m := range rep {
		addr := backend
		if _, capture := log.(errorCapture); !capture && m.Master < len(addrs) {
			addr = addrs[m.Master]
		}
		out = append(out, schema.MasterErrors{Index: m.Master + 1, Master: addr, Errors: m.Errors})
	}
	return out
}

// failedError is runs where more than half the attempts failed
// (MostlyFailed), when that was not expected.
type failedError struct{ Runs []string }

func (e *failedError) Error() string {
	return fmt.Sprintf("more than half the attempts failed in %v", e.Runs)
}

// CheckFailures tells on log (nil: nowhere) the warnings of the runs that
// measured no progress (no grant, no completed cycle, a stall:
// schema.Run.Failures) and of those where more than half the attempts
// failed (MostlyFailed, with cfg's node timeout), and returns them as a
// *FailedError (first: the failures say why) or a *NoProgressError, unless failures were
// expected: allowed, or cfg injects faults. The warnings are told either
// way.
//
// stallsFail makes a stall a failure (a single run); without it a stall is
// told and flagged in the results but fails nothing (a compare's rounds
// judge it), while a run without a grant or a completed cycle still does.
func CheckFailures(log io.Writer, cfg Config, runs []schema.Run, allow, stallsFail bool) error {
	faulted := len(cfg.Faults) > 0
	stuck, stuckWarnings := noProgress(runs, stallsFail)
	bad, warnings := mostlyFailed(runs, cfg.Driver.Redlock.NodeTimeout, faulted)
	warn(log, stuckWarnings)
	warn(log, warnings)
	switch {
	case allow || faulted:
		return nil
	case len(bad) > 0: // the failures say why nothing moved: their diagnosis first
		return &failedError{Runs: bad}
	case len(stuck) > 0:
		return &NoProgressError{Runs: stuck}
	}
	return nil
}
