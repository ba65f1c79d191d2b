package workloads

import (
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// minStallAfter is the smallest threshold a run may be given: the watcher
// looks every 10 ms at the finest, and a stall must span several looks.
const minStallAfter = 100 * time.Millisecond

// maxStalls bounds the stalls a run keeps (the first ones): a run that
// stalls more often than that is told by its count of them.
const maxStalls = 100

// defaultStallAfter is the shortest stall threshold: a stretch of the window
// with no grant longer than this (or than the workload's own pace allows,
// StallThreshold) is a stall.
const defaultStallAfter = time.Second

// stallThreshold is how long cfg's run may go without a grant before that
// is a stall: cfg.StallAfter when set, else the longest of
// DefaultStallAfter, ten holds (a contended key passes from holder to
// holder once per hold) and ten open-loop intervals (1/rate apart).
func stallThreshold(cfg Config) time.Duration {
	if cfg.StallAfter > 0 {
		return cfg.StallAfter
	}
	t := max(defaultStallAfter, 10*cfg.Hold)
	if cfg.Rate > 0 {
		t = max(t, time.Duration(10*float64(time.Second)/cfg.Rate))
	}
	return t
}

// stallWatch finds the stalls of a run from the registry's live counts,
// looked at every `every` (a tenth of the threshold, at most 100 ms): no
// cost per sample, one mutex and a read of the shards' counters per look.
type stallWatch struct {
	reg       *record.Registry
	threshold time.Duration
	every     time.Duration
	from      int64 // window start, run clock
	// lastGrant: the look that last saw the grant count move (or the
	// window start); beforeLast the counts at the look before it (a release
	// that failed just after the last grant may fall in that look), prev
	// the counts at the latest look.
	lastGrant  int64
	grants     int64
	beforeLast record.OpCounts
	prev       record.OpCounts
	stalls     []schema.Stall
}

func newStallWatch(reg *record.Registry, threshold time.Duration, from int64) *stallWatch {
	every := min(max(threshold/10, 10*time.Millisecond), 100*time.Millisecond)
	return &stallWatch{reg: reg, threshold: threshold, every: every, from: from, lastGrant: from}
}

// look is one look at now (run clock, inside the window).
func (s *stallWatch) look(now int64) {
	c := s.reg.Live()
	prev := s.prev
	s.prev = c
	g := c.Count(schema.OpAcquire, schema.OK)
	if g == s.grants {
		return
	}
	if gap := time.Duration(now - s.lastGrant); gap > s.threshold {
		s.add(gap, prev, false) // what happened up to the look before this grant
	}
	s.grants, s.lastGrant, s.beforeLast = g, now, prev
}

// end is the last look, at the window's end: a stretch without a grant
// up to it is a stall that lasted to the end.
func (s *stallWatch) end(at int64) []schema.Stall {
	s.look(at)
	if gap := time.Duration(at - s.lastGrant); gap > s.threshold {
		s.add(gap, s.prev, true)
	}
	return s.stalls
}

// add is a stall of gap from the last grant, with what the counts did
// from the look before it to upTo.
func (s *stallWatch) add(gap time.Duration, upTo record.OpCounts, atEnd bool) {
	d := upTo.Minus(s.beforeLast)
	st := schema.Stall{
		Start: time.Duration(s.lastGrant - s.from), Duration: gap, AtEnd: atEnd, Threshold: s.threshold,
		// Failed attempts: grants at the stall's first look are its edge.
		Attempts: d.Total(schema.OpAcquire) - d.Count(schema.OpAcquire, schema.OK), Busy: d.Count(schema.OpAcquire, schema.Busy),
		SplitBrain: d.Count(schema.OpAcquire, schema.SplitBrain), Timeouts: d.Count(schema.OpAcquire, schema.Timeout),
		Errors:        d.Count(schema.OpAcquire, schema.Error),
		ReleaseErrors: d.Total(schema.OpRelease) - d.Count(schema.OpRelease, schema.OK),
	}
	st.Cause = schema.StallCause(st)
	if len(s.stalls) < maxStalls {
		s.stalls = append(s.stalls, st)
	}
}
