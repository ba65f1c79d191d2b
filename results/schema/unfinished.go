package schema

import (
	"time"
)

// Unfinished are the cycles still in flight when a run's window ended: cut
// short by the deadline (or an interrupt, or still blocked when the
// shutdown budget ran out). They are not in the latency histograms — no
// cycle that ends after the window is — so a stall that lasts to the end
// would vanish without them; here they count, with how long they had
// waited by the window's end.
type Unfinished struct {
	Cycles int64 `json:"cycles"`
	// By phase at the window's end: still acquiring (retries included),
	// inside the critical section, releasing.
	Acquiring int64 `json:"acquiring"`
	Holding   int64 `json:"holding"`
	Releasing int64 `json:"releasing"`
	// Waited: from each cycle's (intended) start to the window's end.
	MaxWaitUS  float64 `json:"max_wait_us"`
	MeanWaitUS float64 `json:"mean_wait_us"`
	// Stuck: workers that had not returned when the shutdown budget ran
	// out (blocked in a call that ignores cancellation).
	Stuck int64 `json:"stuck,omitempty"`
}

// Phases of a cycle in flight.
const (
	PhaseIdle = iota
	PhaseAcquiring
	PhaseHolding
	PhaseReleasing
)

// AddUnfinished counts one cycle in phase that had waited waited at the
// window's end.
func (u *Unfinished) AddUnfinished(phase int, waited time.Duration) {
	us := float64(waited) / 1e3
	u.MeanWaitUS = (u.MeanWaitUS*float64(u.Cycles) + us) / float64(u.Cycles+1)
	u.Cycles++
	u.MaxWaitUS = max(u.MaxWaitUS, us)
	switch phase {
	case PhaseAcquiring:
		u.Acquiring++
	case PhaseHolding:
		u.Holding++
	case PhaseReleasing:
		u.Releasing++
	}
}
