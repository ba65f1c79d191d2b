package record

import (
	"math"
	"sync/atomic"

	"github.com/lockbench/lockbench/results/schema"
)

// shard is the measurements of the workers mapped to it since the last
// tick, as atomic counters: a registry has a fixed number of shards
// (numShards), so its memory and its tick's cost do not grow with workers.
type shard struct {
	lat     [schema.NumOps]buckets  // from the intended start
	service *[schema.NumOps]buckets // from the actual start; nil in a closed loop
	counts  [schema.NumOps][schema.NumOutcomes]atomic.Int64
	dropped atomic.Int64 // values outside the geometry
}

func newShard(service bool) *shard {
	s := &shard{}
	if service {
		s.service = new([schema.NumOps]buckets)
	}
	return s
}

// window is the measured window on the run clock: samples that end outside
// [from, until) are not recorded (the warmup, and cycles still in flight at
// the deadline).
type window struct {
	from, until atomic.Int64
	_           [48]byte // read on every sample: keep it off written lines
}

// Recorder is one worker's handle on its registry. Record costs an atomic
// add per counter it touches (outcome, latency bucket, service bucket) and
// two atomic loads of the window: no lock, no channel, no allocation.
// Workers share shards; the counters are atomic for that.
type Recorder struct {
	s   *shard
	win *window
}

// Record files one operation that ended at end: latency end−intended
// (end−start goes to the service-time histogram when the run is open loop),
// outcome counted. Times are monotonic nanoseconds from the same Clock.
func (r *Recorder) Record(op schema.Op, outcome schema.Outcome, intended, start, end int64) {
	if end < r.win.from.Load() || end >= r.win.until.Load() {
		return
	}
	s := r.s
	s.counts[op][outcome].Add(1)
	if !s.lat[op].add(end - intended) {
		s.dropped.Add(1)
	}
	if s.service != nil && !s.service[op].add(end-start) {
		s.dropped.Add(1)
	}
}

// Count files an outcome that ended at `at` without a latency (e.g. a cycle
// that gave up).
func (r *Recorder) Count(op schema.Op, outcome schema.Outcome, at int64) {
	if at < r.win.from.Load() || at >= r.win.until.Load() {
		return
	}
	r.s.counts[op][outcome].Add(1)
}

func (w *window) set(from, until int64) {
	w.from.Store(from)
	w.until.Store(until)
}

func newWindow() *window {
	w := &window{}
	w.set(math.MinInt64, math.MaxInt64)
	return w
}
