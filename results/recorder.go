package results

import (
	"runtime"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// shard is one worker's measurements since the last tick.
type shard struct {
	lat     [NumOps]*hdrhistogram.Histogram // from the intended start
	service [NumOps]*hdrhistogram.Histogram // from the actual start; nil in a closed loop
	counts  [NumOps][NumOutcomes]int64
}

func newShard(service bool) *shard {
	s := &shard{}
	for i := range s.lat {
		s.lat[i] = NewHistogram()
		if service {
			s.service[i] = NewHistogram()
		}
	}
	return s
}

// reset clears only histograms that hold something: clearing is a memclr of
// the whole counts array, and most ticks leave some ops (extend) untouched.
func (s *shard) reset() {
	for i := range s.lat {
		resetIfUsed(s.lat[i])
		resetIfUsed(s.service[i])
	}
	s.counts = [NumOps][NumOutcomes]int64{}
}

func resetIfUsed(h *hdrhistogram.Histogram) {
	if h != nil && h.TotalCount() > 0 {
		h.Reset()
	}
}

// mergeInto adds s to dst; dropped counts values outside the geometry.
func (s *shard) mergeInto(dst *shard) (dropped int64) {
	for i := range s.lat {
		if s.lat[i].TotalCount() > 0 {
			dropped += dst.lat[i].Merge(s.lat[i])
		}
		if s.service[i] != nil && dst.service[i] != nil && s.service[i].TotalCount() > 0 {
			dropped += dst.service[i].Merge(s.service[i])
		}
		for o := range s.counts[i] {
			dst.counts[i][o] += s.counts[i][o]
		}
	}
	return dropped
}

// Recorder belongs to one worker. Record costs two atomic adds, an atomic
// load and the histogram's own increment: no lock, no channel, no allocation.
// The registry swaps the recorder's shard on a tick (double buffering) and
// waits out a write in flight using seq, which is odd while one is.
type Recorder struct {
	seq    atomic.Uint64
	active atomic.Pointer[shard]
	spare  *shard   // owned by the registry
	_      [40]byte // keep neighbouring workers' seq off this cache line
}

// Record files one operation: latency end−intended (end−start goes to the
// service-time histogram when the run is open loop), outcome counted.
// Times are monotonic nanoseconds from the same Clock.
func (r *Recorder) Record(op Op, outcome Outcome, intended, start, end int64) {
	r.seq.Add(1)
	s := r.active.Load()
	s.counts[op][outcome]++
	_ = s.lat[op].RecordValue(end - intended)
	if h := s.service[op]; h != nil {
		_ = h.RecordValue(end - start)
	}
	r.seq.Add(1)
}

// Count files an outcome without a latency (e.g. a cycle that gave up).
func (r *Recorder) Count(op Op, outcome Outcome) {
	r.seq.Add(1)
	r.active.Load().counts[op][outcome]++
	r.seq.Add(1)
}

// swap hands the worker its spare shard and returns the one it was writing,
// once no write to it is in flight.
func (r *Recorder) swap() *shard {
	old := r.active.Swap(r.spare)
	if s := r.seq.Load(); s&1 == 1 {
		// A write is in flight and may be on old: wait until it ends. Any
		// later write loads the new shard.
		for r.seq.Load() == s {
			runtime.Gosched()
		}
	}
	r.spare = nil
	return old
}
