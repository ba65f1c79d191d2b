package referee

import (
	"hash/maphash"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// Referee is the harness's ground truth. Every worker tells it, on one
// Clock, when it attempts a key, what each attempt yielded and when it let go.
// From that it counts what no single client can see:
//   - violations: two grants of one key whose windows [granted, min(valid
//     until, released)) overlap, plus grants whose fencing token went back;
//   - for each failed contended attempt, whether a holder existed during it
//     (busy) or nobody won that round (split_brain);
//   - fairness (Jain's index of per-worker acquisitions) and the validity
//     margin left at grant time;
//   - stale overlaps: a holder that went on using the key after its
//     validity ended (released > valid until, as after a GC pause) while
//     another worker was granted the key in [valid until, released). The
//     lock service did nothing wrong — it is not a violation — but the
//     resource had two users at once: what fencing tokens are for.
//
// Keys are spread over refShards shards, each with its own mutex, so two
// workers meet on a lock only when they hash to the same shard. A worker's
// attempt in flight lives in its own slot (two atomic stores, no lock).
//
// Keys are known by a 64-bit hash (hash/maphash, seeded per referee), not
// by their string, so logging a grant allocates nothing and keeps no key
// alive: two distinct keys of a run share a hash with probability about
// keys²/2⁶⁵ (10⁻⁶ for six million keys), which would merge their logs.
type Referee struct {
	shards  [refShards]refShard
	workers []refWorker
	seed    maphash.Seed
	// margins: validity margins (ns) of counted grants, a fixed number of
	// atomic bucket arrays shared by the workers, not a histogram per worker.
	margins *record.ConcurrentHistogram
	now     func() int64
	maxWait int64
	// [from, until): grants and failures outside it (the warmup, the
	// deadline's stragglers) are not counted — the registry's window.
	from, until atomic.Int64
	overlaps    atomic.Int64
	fenceBack   atomic.Int64
	toSplit     atomic.Int64 // attempts the client called busy that nobody held
	toBusy      atomic.Int64 // attempts the client called split that lost to a holder
	stale       atomic.Int64 // grants used past their validity while another worker held the key
	sweepHorizn int64
}

const (
	refShards = 64
	ringSize  = 4
	open      = math.MaxInt64 // not yet released / unlocked
	logSlab   = 64            // key logs per allocation
	// minSweep is the fewest keys a shard holds before it sweeps, and
	// sweepGrowth the share its keys grow by, after a sweep, before the
	// next: the keys a shard keeps stay within 1 + 1/sweepGrowth of those
	// inside the sweep horizon (a fresh key per cycle at 44k cycles/s is
	// 88k keys in the 2 s horizon, 88 B of log each), for a sweep that visits
	// every key once per sweepGrowth inserts.
	minSweep    = 256
	sweepGrowth = 4
)

type refShard struct {
	mu      sync.Mutex
	keys    map[uint64]*keyLog
	free    []*keyLog // swept logs, reused so a new key costs no allocation
	slab    []keyLog  // fresh logs, allocated logSlab at a time
	sweepAt int
	_       [40]byte
}

// grant is one acquisition. Windows: [granted, min(validUntil, released))
// for safety, [start, unlocked] for "a holder existed" (the key is on the
// masters from the winning attempt's start until its release completes).
type grant struct {
	worker                                     int32
	fence                                      uint64
	start, granted, validUntil, released, unlk int64
}

type refWorker struct {
	hash     atomic.Uint64 // key hash of the attempt in flight; 0 none
	start    atomic.Int64
	acquired int64 // written by the worker alone; read after the run
	// The worker's latest grant, for the stale-use check at its release
	// (its ring entry may have been evicted by then, when others acquired
	// the key while it stalled). Written and read by the worker alone.
	lastKey                uint64 // key hash; 0: none, or already checked
	lastGranted, lastValid int64
	_                      [40]byte
}

// New serves workers workers on clock. A failed attempt's verdict
// waits at most maxWait for contenders whose attempts overlapped it to end
// (0: one second).
func New(workers int, clock record.Clock, maxWait time.Duration) *Referee {
	if maxWait <= 0 {
		maxWait = time.Second
	}
	r := &Referee{workers: make([]refWorker, workers), now: clock.Now, maxWait: int64(maxWait),
		seed: maphash.MakeSeed(), margins: record.NewConcurrentHistogram(workers)}
	r.until.Store(math.MaxInt64)
	// A failure is judged within maxWait of its end, and an attempt lasts
	// far less than a second: older unlocked grants can matter to no one.
	r.sweepHorizn = int64(maxWait) + int64(time.Second)
	for i := range r.shards {
		r.shards[i].keys = make(map[uint64]*keyLog)
		r.shards[i].sweepAt = minSweep
	}
	return r
}

// CountWindow makes the referee count only grants and failures in
// [from, until) (the measured window: the registry's, so the grants judged
// are exactly the acquisitions counted).
func (r *Referee) CountWindow(from, until int64) {
	r.from.Store(from)
	r.until.Store(until)
}

// CountFrom is CountWindow(t, ∞).
func (r *Referee) CountFrom(t int64) { r.CountWindow(t, math.MaxInt64) }

func (r *Referee) counts(t int64) bool { return t >= r.from.Load() && t < r.until.Load() }

func (r *Referee) keyHash(key string) uint64 {
	return maphash.String(r.seed, key) | 1 // 0 means "no attempt"
}

// Attempting: worker starts one attempt on key at start.
func (r *Referee) Attempting(worker int, key string, start int64) {
	w := &r.workers[worker]
	w.start.Store(start)
	w.hash.Store(r.keyHash(key))
}

// Granted: worker's attempt begun at start won key at granted, valid until
// validUntil, with fence (0: the backend has none).
func (r *Referee) Granted(worker int, key string, start, granted, validUntil int64, fence uint64) {
	w := &r.workers[worker]
	counted := r.counts(granted)
	if counted {
		w.acquired++
		r.margins.Add(worker, min(max(validUntil-granted, 0), record.HighestNS))
	}
	h := r.keyHash(key)
	w.lastKey, w.lastGranted, w.lastValid = h, granted, validUntil
	s := &r.shards[h%refShards]
	s.mu.Lock()
	kl := s.log(h)
	g := grant{worker: int32(worker), fence: fence, start: start, granted: granted, validUntil: validUntil, released: open, unlk: open}
	var overlaps int64
	for i := range min(kl.n, ringSize) {
		o := kl.at(i)
		if g.granted < min(o.validUntil, o.released) && o.granted < g.validUntil {
			overlaps++
		}
	}
	back := fence != 0 && fence < kl.lastFence
	if fence > kl.lastFence {
		kl.lastFence = fence
	}
	slot := kl.next()
	if kl.n >= ringSize {
		// An entry still open is bounded by its validity: its unlock, when
		// it comes, will not find it.
		kl.evictedEnd = max(kl.evictedEnd, min(slot.unlk, slot.validUntil))
	}
	*slot = g
	kl.n++
	if len(s.keys) >= s.sweepAt {
		s.sweep(granted - r.sweepHorizn)
	}
	s.mu.Unlock()
	// Only now that the grant is logged: a contender waiting on this
	// attempt must find it.
	w.hash.Store(0)
	if counted {
		if overlaps > 0 {
			r.overlaps.Add(overlaps)
		}
		if back {
			r.fenceBack.Add(1)
		}
	}
}

// Released: worker stopped using key at `at` (before its unlock is sent).
// A release after the grant's validity ended is a stale overlap when
// another worker was granted key in [valid until, at); counted once per
// grant, for grants of the measured window.
func (r *Referee) Released(worker int, key string, at int64) {
	w := &r.workers[worker]
	h := r.keyHash(key)
	staleFrom := int64(open) // no check
	if w.lastKey == h {
		if at > w.lastValid && r.counts(w.lastGranted) {
			staleFrom = w.lastValid
		}
		w.lastKey = 0
	}
	if r.mark(worker, h, at, false, staleFrom) {
		r.stale.Add(1)
	}
}

// Unlocked: worker's unlock of key completed (or failed) at `at`.
func (r *Referee) Unlocked(worker int, key string, at int64) {
	r.mark(worker, r.keyHash(key), at, true, open)
}

// mark sets the release or unlock time of worker's latest grant on key.
// With staleFrom < open (a release past the validity that ended then), it
// also reports whether another worker's grant of key began in [staleFrom,
// at). The ring keeps the key's latest grants, so the ones in that window,
// if any, are still there unless ringSize grants came after `at` (they
// cannot: `at` is now) — or the key was swept, which takes every grant of
// it unlocked over the sweep horizon ago.
func (r *Referee) mark(worker int, h uint64, at int64, unlocked bool, staleFrom int64) (stale bool) {
	s := &r.shards[h%refShards]
	s.mu.Lock()
	if kl, ok := s.keys[h]; ok {
		// The worker's latest grant on key is the newest ring entry it owns.
		for i := range min(kl.n, ringSize) {
			j := (kl.n - 1 - i) % ringSize
			if g := kl.at(j); g.worker == int32(worker) {
				if unlocked {
					g.unlk = at
				} else {
					g.released = at
				}
				break
			}
		}
		if staleFrom != open {
			for i := range min(kl.n, ringSize) {
				o := kl.at(i)
				if o.worker != int32(worker) && o.granted >= staleFrom && o.granted < at {
					stale = true
					break
				}
			}
		}
	}
	s.mu.Unlock()
	return stale
}

// Failed gives the verdict on worker's attempt [start, end] on key that did
// not acquire. claimed is the client's own classification. A Busy or
// SplitBrain claim (the masters answered, and refused) becomes Busy when
// some grant's holding window overlapped the attempt, else SplitBrain:
// nobody won the round, whatever the client saw held (contenders' partial
// votes, leftovers of failed attempts). Timeout and Error claims stand.
// Before deciding it waits (at most maxWait) for contenders' attempts on key
// that began before end, since one of them may yet be granted.
func (r *Referee) Failed(worker int, key string, start, end int64, claimed schema.Outcome) schema.Outcome {
	r.workers[worker].hash.Store(0)
	if claimed != schema.Busy && claimed != schema.SplitBrain {
		return claimed
	}
	h := r.keyHash(key)
	if !r.held(h, start, end) {
		r.awaitContenders(worker, h, end)
		if !r.held(h, start, end) {
			r.moved(claimed, schema.SplitBrain, end)
			return schema.SplitBrain
		}
	}
	r.moved(claimed, schema.Busy, end)
	return schema.Busy
}

func (r *Referee) moved(from, to schema.Outcome, at int64) {
	if from == to || !r.counts(at) {
		return
	}
	if to == schema.SplitBrain {
		r.toSplit.Add(1)
	} else {
		r.toBusy.Add(1)
	}
}

// held: did any grant of key hold it at some time in [start, end]?
func (r *Referee) held(h uint64, start, end int64) bool {
	s := &r.shards[h%refShards]
	s.mu.Lock()
	defer s.mu.Unlock()
	kl, ok := s.keys[h]
	if !ok {
		return false
	}
	if kl.n > ringSize && kl.evictedEnd >= start {
		return true
	}
	for i := range min(kl.n, ringSize) {
		g := kl.at(i)
		if g.start <= end && g.unlk >= start {
			return true
		}
	}
	return false
}

func (r *Referee) awaitContenders(self int, h uint64, end int64) {
	deadline := r.now() + r.maxWait
	for i := range r.workers {
		if i == self {
			continue
		}
		w := &r.workers[i]
		for spins := 0; w.hash.Load() == h && w.start.Load() <= end; spins++ {
			if r.now() > deadline {
				return
			}
			// A contender's attempt is a network round trip: yield first,
			// then sleep rather than burn a CPU the servers may need.
			if spins < 64 {
				runtime.Gosched()
			} else {
				time.Sleep(20 * time.Microsecond)
			}
		}
	}
}

// log is the log of the key hashed h, made (or reused) on first use.
func (s *refShard) log(key uint64) *keyLog {
	if kl, ok := s.keys[key]; ok {
		return kl
	}
	var kl *keyLog
	if n := len(s.free); n > 0 {
		kl, s.free = s.free[n-1], s.free[:n-1]
		*kl = keyLog{more: kl.more}
	} else {
		if len(s.slab) == 0 {
			s.slab = make([]keyLog, logSlab)
		}
		kl, s.slab = &s.slab[0], s.slab[1:]
	}
	s.keys[key] = kl
	return kl
}

// sweep forgets keys whose every grant was unlocked before cutoff: no
// failure still to be judged can have overlapped them.
func (s *refShard) sweep(cutoff int64) {
	for k, kl := range s.keys {
		done := true
		for i := range min(kl.n, ringSize) {
			if kl.at(i).unlk >= cutoff {
				done = false
				break
			}
		}
		if done {
			delete(s.keys, k)
			s.free = append(s.free, kl)
		}
	}
	s.sweepAt = max(minSweep, len(s.keys)+len(s.keys)/sweepGrowth)
}
