package workloads

import (
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// ShutdownBudget is how long a run waits, after its window ends (or it is
// interrupted), for its workers to return. Every call a worker makes takes
// the run's context, and the release that frees a key at the end has its
// own 1 s bound, so a worker that has not returned by then is blocked in a
// call that ignores cancellation (a frozen server behind a client library
// that retries on its own). The run ends without it: the worker is counted
// as stuck, its cycle as unfinished.
const ShutdownBudget = 5 * time.Second

// inflight is each worker's cycle in flight: its (intended) start and
// phase, written by the worker at each phase change (an atomic store on a
// cache line of its own) and read once, at the end, for the unfinished
// cycles.
type inflight struct {
	slots []inflightSlot
}

type inflightSlot struct {
	start atomic.Int64
	phase atomic.Int32
	_     [52]byte
}

func newInflight(workers int) *inflight { return &inflight{slots: make([]inflightSlot, workers)} }

// begin marks worker w's cycle started at start (intended, run clock).
func (f *inflight) begin(w int, start int64) {
	s := &f.slots[w]
	s.start.Store(start)
	s.phase.Store(schema.PhaseAcquiring)
}

// enter moves worker w's cycle to phase (schema.Phase*; PhaseIdle: done).
func (f *inflight) enter(w int, phase int32) { f.slots[w].phase.Store(phase) }

// unfinished counts the cycles in flight at end (run clock): begun before
// it and not done. nil when there were none.
func (f *inflight) unfinished(end int64, stuck int64) *schema.Unfinished {
	var u schema.Unfinished
	for i := range f.slots {
		s := &f.slots[i]
		p := s.phase.Load()
		if start := s.start.Load(); p != schema.PhaseIdle && start < end {
			u.AddUnfinished(int(p), time.Duration(end-start))
		}
	}
	u.Stuck = stuck
	if u.Cycles == 0 && stuck == 0 {
		return nil
	}
	return &u
}
