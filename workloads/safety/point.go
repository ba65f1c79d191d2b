package safety

import "time"

// Point is one (backend, fault magnitude, fencing) measurement.
//
// A violation is a grant's use that broke mutual exclusion: the referee's
// (two grants of a key with overlapping validity windows, a fencing token
// that went back: the lock service's own failures) plus the resource's
// stale writes it accepted (a superseded holder's write landing after its
// successor's). An incident seen both ways counts twice; none is hidden.
type Point struct {
	Backend string  `json:"backend"`
	Fault   string  `json:"fault"`
	Ratio   float64 `json:"ratio"`
	Fencing Fencing `json:"fencing"` // on or off
	// MagnitudeMS is the fault's magnitude, ratio × TTL.
	MagnitudeMS float64 `json:"magnitude_ms"`
	// PauseMS is the injected pause of the pause fault (ratio × TTL).
	PauseMS float64 `json:"pause_ms,omitempty"`
	Grants  int64   `json:"grants"`
	// CutOffGrants are the grants of workers that reach only a bare
	// quorum of the masters (the clock jump's precondition).
	CutOffGrants int64 `json:"cut_off_grants,omitempty"`
	// TokenErrors are grants whose fencing token could not be taken (the
	// counter's master was down): their writes were not made.
	TokenErrors int64 `json:"token_errors,omitempty"`
	// Overran are grants held for their validity whose holder meant to
	// wake inside it (a margin before its end) yet made its exit write
	// after it ended: the host did not run the holder on time, a pause
	// the fault did not play. Its exit write may land stale.
	Overran int64 `json:"overran,omitempty"`
	// FaultEvents are what the fault's schedule did (compose/faults),
	// FaultErrors those that failed; both empty for the pause, which the
	// holder plays itself.
	FaultEvents int      `json:"fault_events,omitempty"`
	FaultErrors []string `json:"fault_errors,omitempty"`
	// Violations are LockViolations + StaleWritesAccepted, the rate's
	// events.
	Violations   int64   `json:"violations"`
	PerMillion   float64 `json:"per_million"`
	PerMillionLo float64 `json:"per_million_lo"`
	PerMillionHi float64 `json:"per_million_hi"`
	WriteCounts
	// LockViolations are the referee's violations; StaleOverlaps its
	// grants used past their validity while another worker held the key.
	LockViolations int64 `json:"lock_violations"`
	StaleOverlaps  int64 `json:"stale_overlaps"`
	Attempts       int64 `json:"attempts"`
	// Errors are attempts that failed with an error or timed out (not
	// refused as busy).
	Errors int64 `json:"errors"`
	// MeasuredPause* are the holders' pauses as their own clocks read
	// them, over the pauses that ran to their end.
	// FailoverMS is a failover fault's time from the master's kill to
	// the Sentinel naming the replica master (0: no promotion seen).
	FailoverMS         float64 `json:"failover_ms,omitempty"`
	MeasuredPauseMinMS float64 `json:"measured_pause_min_ms"`
	// WallClockStepMS is how far the host's wall clock moved against its
	// monotonic clock during the point (a step by NTP or the hypervisor;
	// positive: forward). A Redis key expires by the server's wall clock,
	// the referee judges validity on the monotonic one: a forward step
	// lets every key alive across it expire that much early.
	WallClockStepMS    float64 `json:"wall_clock_step_ms,omitempty"`
	MeasuredPauseMaxMS float64 `json:"measured_pause_max_ms"`
	Keys               int     `json:"keys"`
	Workers            int     `json:"workers"`
	ElapsedMS          float64 `json:"elapsed_ms"`
	// Short: the point ran out of its time limit before its grant budget.
	Short       bool `json:"short,omitempty"`
	Interrupted bool `json:"interrupted,omitempty"`
}

// Rate is the point's violations as a rate.
func (p Point) Rate() Rate {
	return Rate{Grants: p.Grants, Events: p.Violations, PerMillion: p.PerMillion, Lo: p.PerMillionLo, Hi: p.PerMillionHi}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
