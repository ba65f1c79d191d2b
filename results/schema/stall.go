package schema

import (
	"fmt"
	"time"
)

// Stall is a stretch of a run's measured window in which no lock was
// granted for longer than the run's stall threshold: a key left held on the
// masters by a lost release until its TTL, masters that stopped answering,
// a fault. A stalled run's throughput is not the speed of what it measured:
// compare, sweep and the CLI's exit status judge it apart (Run.Stalled).
type Stall struct {
	// Start is the last grant before the stall, from the window start;
	// Duration is from there to the next grant, or to the window's end
	// (AtEnd). Both are known to the stall watcher's resolution (a tenth
	// of Threshold, at most 100 ms).
	Start     time.Duration `json:"start_ns"`
	Duration  time.Duration `json:"duration_ns"`
	AtEnd     bool          `json:"at_end,omitempty"`
	Threshold time.Duration `json:"threshold_ns"`
	// Cause names what the attempts during the stall ended as (Cause*).
	Cause string `json:"cause"`
	// What happened during the stall: failed attempts by outcome, and
	// releases that failed (a release that failed leaves the key held until
	// its TTL).
	Attempts      int64 `json:"attempts"`
	Busy          int64 `json:"busy"`
	SplitBrain    int64 `json:"split_brain"`
	Timeouts      int64 `json:"timeouts"`
	Errors        int64 `json:"errors"`
	ReleaseErrors int64 `json:"release_errors"`
}

// Causes of a stall, from what its attempts ended as.
const (
	// CauseLeftoverKey: a release failed and the attempts after it found
	// the key still held (busy or split votes), none timing out: the key
	// stayed on the masters until its TTL.
	CauseLeftoverKey = "leftover-key"
	// CauseHeld: the attempts found the key held and no release had
	// failed: a long hold, a paused holder, or a key left by an earlier run.
	CauseHeld = "held"
	// CauseTimeouts, CauseErrors: most attempts timed out, or failed on
	// the servers (a server stopped or refused).
	CauseTimeouts = "timeouts"
	causeErrors   = "errors"
	// CauseNoAttempts: no attempt ended during the stall: every worker
	// was blocked inside a call or a critical section.
	CauseNoAttempts = "no-attempts"
)

// StallCause names a stall from what happened during it.
func StallCause(s Stall) string {
	held := s.Busy + s.SplitBrain
	switch {
	case s.Attempts == 0:
		return CauseNoAttempts
	case s.Timeouts >= held && s.Timeouts >= s.Errors && s.Timeouts > 0:
		return CauseTimeouts
	case s.Errors >= held && s.Errors > 0:
		return causeErrors
	case s.ReleaseErrors > 0:
		return CauseLeftoverKey
	}
	return CauseHeld
}

// Stalled reports whether grants stopped for longer than the threshold
// somewhere in r's window.
func (r Run) Stalled() bool { return len(r.Stalls) > 0 }

// LongestStall is r's longest stall; zero when none.
func (r Run) LongestStall() Stall {
	var best Stall
	for _, s := range r.Stalls {
		if s.Duration > best.Duration {
			best = s
		}
	}
	return best
}

// String is the stall as one line: when, how long, why.
func (s Stall) String() string {
	end := ""
	if s.AtEnd {
		end = ", until the window's end"
	}
	return fmt.Sprintf("no grant for %.2fs from %+.2fs%s (%s: %d attempts, %d busy, %d split, %d timeouts, %d errors, %d failed releases)",
		s.Duration.Seconds(), s.Start.Seconds(), end, s.Cause, s.Attempts, s.Busy, s.SplitBrain, s.Timeouts, s.Errors, s.ReleaseErrors)
}

// NoGrant: the window was measured and not one lock was granted in it.
func (r Run) NoGrant() bool { return !r.NothingMeasured && r.Counts.Acquired == 0 }

// Failures are the reasons r measured no progress, one line each: no grant
// in the window, no cycle completed, stalls. Empty for a run that made
// progress throughout (and for one interrupted before its window).
func (r Run) Failures() []string {
	if r.NothingMeasured {
		return nil
	}
	var out []string
	switch {
	case r.NoGrant():
		out = append(out, fmt.Sprintf("no lock was granted in the %.3gs window (%d attempts)", r.DurationS, r.Counts.Attempts))
	case r.Counts.Cycles == 0:
		out = append(out, fmt.Sprintf("no cycle completed in the %.3gs window (%d granted)", r.DurationS, r.Counts.Acquired))
	}
	for _, s := range r.Stalls {
		out = append(out, "stalled: "+s.String())
	}
	return out
}
