package workloads

import (
	"sync/atomic"
	"time"
)

// Stalls are armed client pauses (the pause-client fault): the critique's
// GC pause, a holder that stops inside its critical section long enough for
// its lease to expire while it still believes it holds the lock.
//
// Arming worker w for d makes w's NEXT critical section stall: after its
// next grant and its hold, it sleeps d more before it releases (and tells
// the referee it released). A worker never stalls outside the critical
// section — not while waiting for its turn, not while attempting, not after
// the release — so d > the lease's validity means the holder keeps using
// the key past its validity. A worker that is already holding when armed
// stalls in the section it is in, since its release has not come yet.
// One arming is one stall; arming again before it is taken replaces d.
//
// The workers' cost when nothing is armed is one atomic load per cycle.
type Stalls struct {
	pending []paddedInt64 // per worker, ns; 0: none armed
	taken   atomic.Int64
}

// paddedInt64 keeps each worker's pending stall on its own cache line: the
// workers read them every cycle.
type paddedInt64 struct {
	atomic.Int64
	_ [56]byte
}

// NewStalls serves workers workers (0-based ids).
func NewStalls(workers int) *Stalls {
	return &Stalls{pending: make([]paddedInt64, max(workers, 0))}
}

// Arm makes worker's next critical section stall for d before its release.
// worker is 0-based; an id out of range or d ≤ 0 is ignored. Safe to call
// from any goroutine (the fault schedule's).
func (s *Stalls) Arm(worker int, d time.Duration) {
	if s == nil || uint(worker) >= uint(len(s.pending)) || d <= 0 {
		return
	}
	s.pending[worker].Store(int64(d))
}

// Taken is how many armed stalls workers have performed (begun) so far.
func (s *Stalls) Taken() int64 {
	if s == nil {
		return 0
	}
	return s.taken.Load()
}

// take is worker's armed stall, disarmed; 0 when none (or s is nil). It is
// on every cycle's path: one atomic load when nothing is armed, a swap only
// when something is.
func (s *Stalls) take(worker int) time.Duration {
	if s == nil || uint(worker) >= uint(len(s.pending)) {
		return 0
	}
	p := &s.pending[worker]
	if p.Load() == 0 {
		return 0
	}
	d := p.Swap(0)
	if d > 0 {
		s.taken.Add(1)
	}
	return time.Duration(d)
}
