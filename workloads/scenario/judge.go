package scenario

import (
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// Want is a yes/no expectation that may also not matter.
type Want int

const (
	either Want = iota // not judged
	yes                // must hold (violations: some)
	No                 // must not hold (violations: none)
)

func (w Want) met(v bool) bool { return w == either || (w == yes) == v }

// Expect is an expected outcome: the words the table shows and what the
// judge checks. Every field set must hold.
type Expect struct {
	Words string
	// Violations: Yes wants some (> 0; for client-pause, stale writes that
	// landed), No wants none.
	Violations Want
	// Available: no 1 s interval without a grant.
	Available bool
	// MinOutage: a time without any grant at least this long from the
	// first fault on (unavailable while down).
	MinOutage time.Duration
	// Recovers: a grant came after the last repair.
	Recovers bool
	// Fenced (client-pause): every stale write was refused.
	Fenced bool
	// FirstGranted and SecondGranted (failover): A's grant while
	// replication was held back, B's after the failover.
	FirstGranted, SecondGranted Want
}

// Met judges a measured outcome against e.
func (e Expect) Met(o schema.ScenarioOutcome) bool {
	ok := e.Violations.met(o.Violations > 0) &&
		(!e.Available || o.ZeroSeconds == 0) &&
		o.LongestOutageMS >= float64(e.MinOutage.Milliseconds()) &&
		(!e.Recovers || o.RecoveryMS >= 0)
	if e.Fenced {
		f := o.Fencing
		ok = ok && f != nil && f.StaleAccepted == 0 && f.StaleRejected == f.Rounds
	}
	if e.FirstGranted != either || e.SecondGranted != either {
		f := o.Failover
		ok = ok && f != nil && e.FirstGranted.met(f.AGranted) && e.SecondGranted.met(f.BGranted)
	}
	return ok
}

// judge sets o's expected words and verdict.
func (e Expect) judge(o *schema.ScenarioOutcome) {
	o.Expected, o.AsExpect = e.Words, e.Met(*o)
}

// outcomeOf reads the referee's violations and the fault report's
// availability timeline out of a run of the given duration: acquisitions
// per second before the first fault (kill, stop, inject), during, and
// after the last repair (restart, resume, heal; -1 when nothing was
// repaired), 1 s intervals without a grant, the recovery after the last
// repair (-1: none) and the longest outage.
func outcomeOf(run schema.Run, duration time.Duration) schema.ScenarioOutcome {
	o := schema.ScenarioOutcome{Violations: run.Counts.Violations, Acquired: run.Counts.Acquired, Attempts: run.Counts.Attempts, RecoveryMS: -1}
	rep := run.Faults
	if rep == nil {
		rep = &schema.FaultReport{}
	}
	first, last := duration.Seconds(), 0.0
	for _, e := range rep.Events {
		at := e.AtMS / 1e3
		switch e.Action {
		case "kill", "stop", "inject":
			first = min(first, at)
		case "restart", "resume", "heal":
			last = max(last, at)
		}
	}
	repaired := last > 0
	if !repaired {
		last = duration.Seconds()
	}
	var nb, nd, na, sb, sd, sa float64
	for _, iv := range rep.Timeline {
		span := iv.ToS - iv.FromS
		if span < 0.5 { // a last partial interval says little about a rate
			continue
		}
		if iv.Acquired == 0 {
			o.ZeroSeconds++
		}
		rate := float64(iv.Acquired) / span
		switch {
		case iv.ToS <= first:
			nb, sb = nb+1, sb+rate
		case iv.FromS >= last:
			na, sa = na+1, sa+rate
		default:
			nd, sd = nd+1, sd+rate
		}
	}
	o.Before, o.During, o.After = ratio(sb, nb), ratio(sd, nd), ratio(sa, na)
	if !repaired {
		o.After = -1
	}
	if n := len(rep.Recoveries); n > 0 {
		o.RecoveryMS = rep.Recoveries[n-1].AfterMS
	}
	o.LongestOutageMS = rep.LongestOutageMS
	return o
}

func ratio(s, n float64) float64 {
	if n == 0 {
		return 0
	}
	return s / n
}
