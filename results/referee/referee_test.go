package referee

import (
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// ev is one call into the referee, for table-driven histories.
type ev struct {
	kind       byte // 'a' attempting, 'g' granted, 'r' released, 'u' unlocked
	worker     int
	key        string
	start, at  int64
	validUntil int64
	fence      uint64
}

func play(r *Referee, evs []ev) {
	for _, e := range evs {
		switch e.kind {
		case 'a':
			r.Attempting(e.worker, e.key, e.at)
		case 'g':
			r.Granted(e.worker, e.key, e.start, e.at, e.validUntil, e.fence)
		case 'r':
			r.Released(e.worker, e.key, e.at)
		case 'u':
			r.Unlocked(e.worker, e.key, e.at)
		}
	}
}

func grantEv(w int, key string, at, valid int64) ev {
	return ev{kind: 'g', worker: w, key: key, start: at - 1, at: at, validUntil: valid}
}

func TestRefereeViolations(t *testing.T) {
	cases := []struct {
		name      string
		evs       []ev
		overlaps  int64
		fenceBack int64
	}{
		{"sequential, released before the next grant", []ev{
			grantEv(0, "k", 10, 100), {kind: 'r', worker: 0, key: "k", at: 20}, {kind: 'u', worker: 0, key: "k", at: 22},
			grantEv(1, "k", 25, 115),
		}, 0, 0},
		{"second grant while the first holds", []ev{
			grantEv(0, "k", 10, 100), grantEv(1, "k", 50, 140),
		}, 1, 0},
		{"a third grant meets the first, moved from inline to the ring", []ev{
			grantEv(0, "k", 10, 100), grantEv(1, "k", 50, 140), {kind: 'r', worker: 1, key: "k", at: 55},
			grantEv(2, "k", 60, 150),
		}, 2, 0},
		{"second grant after the first's validity ended", []ev{
			grantEv(0, "k", 10, 100), grantEv(1, "k", 100, 190),
		}, 0, 0},
		{"different keys never conflict", []ev{
			grantEv(0, "a", 10, 100), grantEv(1, "b", 50, 140),
		}, 0, 0},
		{"three holders at once: three pairs", []ev{
			grantEv(0, "k", 10, 100), grantEv(1, "k", 20, 110), grantEv(2, "k", 30, 120),
		}, 3, 0},
		{"reported out of order still counted once", []ev{
			grantEv(1, "k", 50, 140), grantEv(0, "k", 10, 100),
		}, 1, 0},
		{"fence went backwards", []ev{
			{kind: 'g', worker: 0, key: "k", at: 10, validUntil: 20, fence: 7}, {kind: 'r', worker: 0, key: "k", at: 15},
			{kind: 'g', worker: 1, key: "k", at: 30, validUntil: 40, fence: 5},
		}, 0, 1},
		{"fence forward", []ev{
			{kind: 'g', worker: 0, key: "k", at: 10, validUntil: 20, fence: 5}, {kind: 'r', worker: 0, key: "k", at: 15},
			{kind: 'g', worker: 1, key: "k", at: 30, validUntil: 40, fence: 7},
		}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(3, record.NewClock(), 0)
			play(r, c.evs)
			rep := r.Report()
			if rep.Overlaps != c.overlaps || rep.FenceBackwards != c.fenceBack || rep.Violations != c.overlaps+c.fenceBack {
				t.Errorf("overlaps %d fence %d violations %d, want %d %d", rep.Overlaps, rep.FenceBackwards, rep.Violations, c.overlaps, c.fenceBack)
			}
		})
	}
}

// TestRefereeStaleOverlaps: a holder that keeps using the key past its
// validity (a stalled client) while another worker is granted it is a stale
// overlap, apart from violations.
func TestRefereeStaleOverlaps(t *testing.T) {
	rel := func(w int, at int64) ev { return ev{kind: 'r', worker: w, key: "k", at: at} }
	unl := func(w int, at int64) ev { return ev{kind: 'u', worker: w, key: "k", at: at} }
	grant := func(w int, at, valid int64) ev { return grantEv(w, "k", at, valid) }
	cases := []struct {
		name      string
		countFrom int64
		evs       []ev
		stale     int64
		overlaps  int64
	}{
		{"another worker granted in [valid until, released)", 0, []ev{
			grant(0, 10, 100), grant(1, 120, 210), rel(0, 150),
		}, 1, 0},
		{"released before its validity ended", 0, []ev{
			grant(0, 10, 100), rel(0, 90), unl(0, 92), grant(1, 100, 190), rel(1, 150),
		}, 0, 0},
		{"late release, but nobody else granted meanwhile", 0, []ev{
			grant(0, 10, 100), rel(0, 150), unl(0, 152), grant(1, 160, 250), rel(1, 170),
		}, 0, 0},
		{"the other grant is reported first but came after the release", 0, []ev{
			grant(0, 10, 100), grant(1, 160, 250), rel(0, 150),
		}, 0, 0},
		{"the holder's own regrant is not another holder", 0, []ev{
			grant(0, 10, 100), rel(0, 150), unl(0, 152), grant(0, 160, 250), rel(0, 300),
		}, 0, 0},
		{"the holder's own grant in the window is not another holder", 0, []ev{
			grant(0, 120, 220), grant(0, 10, 100), rel(0, 150), // reported out of order
		}, 0, 0},
		{"own ring entry evicted by 5 later grants: still counted", 0, []ev{
			grant(0, 10, 100),
			grant(1, 110, 200), rel(1, 112), unl(1, 113),
			grant(2, 115, 205), rel(2, 117), unl(2, 118),
			grant(3, 120, 210), rel(3, 122), unl(3, 123),
			grant(4, 125, 215), rel(4, 127), unl(4, 128),
			grant(5, 130, 220), rel(5, 132), unl(5, 133),
			rel(0, 150),
		}, 1, 0},
		{"two others in the window: counted once per stale grant", 0, []ev{
			grant(0, 10, 100), grant(1, 110, 200), rel(1, 112), grant(2, 120, 210), rel(2, 125), rel(0, 150),
		}, 1, 0},
		{"granted while still valid: a violation, not a stale overlap", 0, []ev{
			grant(0, 10, 100), grant(1, 50, 140), rel(1, 60), rel(0, 150),
		}, 0, 1},
		{"stale grant from before CountFrom (warmup)", 100, []ev{
			grant(0, 10, 50), grant(1, 120, 210), rel(0, 150),
		}, 0, 0},
		{"stale grant in the measured window", 100, []ev{
			grant(0, 110, 150), grant(1, 160, 250), rel(0, 200),
		}, 1, 0},
		{"a second release of the same grant counts nothing more", 0, []ev{
			grant(0, 10, 100), grant(1, 120, 210), rel(0, 150), rel(0, 160),
		}, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(6, record.NewClock(), 0)
			r.CountFrom(c.countFrom)
			play(r, c.evs)
			rep := r.Report()
			if rep.StaleOverlaps != c.stale || rep.Overlaps != c.overlaps || rep.Violations != c.overlaps {
				t.Errorf("stale %d overlaps %d violations %d, want %d %d %d", rep.StaleOverlaps, rep.Overlaps, rep.Violations, c.stale, c.overlaps, c.overlaps)
			}
			var run schema.Run
			run.FillReferee(rep)
			if run.Counts.StaleOverlaps != c.stale || run.Counts.Violations != c.overlaps {
				t.Errorf("run counts %+v, want stale %d violations %d", run.Counts, c.stale, c.overlaps)
			}
		})
	}
}

func TestRefereeVerdict(t *testing.T) {
	holder := []ev{{kind: 'a', worker: 1, key: "k", at: 100}, {kind: 'g', worker: 1, key: "k", start: 100, at: 110, validUntil: 1000}}
	released := append(append([]ev{}, holder...), ev{kind: 'r', worker: 1, key: "k", at: 200})
	unlocked := append(append([]ev{}, released...), ev{kind: 'u', worker: 1, key: "k", at: 210})
	cases := []struct {
		name       string
		history    []ev
		start, end int64
		claimed    schema.Outcome
		want       schema.Outcome
	}{
		{"busy, a holder overlapped", holder, 150, 160, schema.Busy, schema.Busy},
		{"busy claim, nobody held: split", nil, 150, 160, schema.Busy, schema.SplitBrain},
		{"split claim, but the winner's attempt overlapped: busy", holder, 90, 105, schema.SplitBrain, schema.Busy},
		{"split, holder gone before the attempt", unlocked, 220, 230, schema.SplitBrain, schema.SplitBrain},
		{"released, unlock still in flight: busy", released, 220, 230, schema.Busy, schema.Busy},
		{"unlocked during the attempt: busy", unlocked, 205, 230, schema.Busy, schema.Busy},
		{"attempt ended before the holder began: split", holder, 10, 50, schema.SplitBrain, schema.SplitBrain},
		{"timeout stands", holder, 150, 160, schema.Timeout, schema.Timeout},
		{"error stands", nil, 150, 160, schema.Error, schema.Error},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(2, record.NewClock(), 0)
			play(r, c.history)
			r.Attempting(0, "k", c.start)
			if got := r.Failed(0, "k", c.start, c.end, c.claimed); got != c.want {
				t.Errorf("verdict %v, want %v", got, c.want)
			}
		})
	}
}

// TestRefereeAwaitsContender: a failure that ended while a contender's
// attempt was still in flight waits for it; the contender won, so: busy.
func TestRefereeAwaitsContender(t *testing.T) {
	r := New(2, record.NewClock(), 5*time.Second)
	r.Attempting(1, "k", 5)
	r.Attempting(0, "k", 0)
	// The referee reads its clock only to bound the wait: the first read
	// says Failed has judged the key unheld and is waiting for contenders.
	waiting, clock := make(chan struct{}), r.now
	var once sync.Once
	r.now = func() int64 { once.Do(func() { close(waiting) }); return clock() }
	var got atomic.Int32
	done := make(chan struct{})
	go func() { got.Store(int32(r.Failed(0, "k", 0, 10, schema.Busy))); close(done) }()
	select {
	case <-waiting: // the contender is granted while Failed waits
	case <-done: // Failed did not wait: the verdict below is split_brain
	}
	r.Granted(1, "k", 5, 12, 1000, 0)
	<-done
	if schema.Outcome(got.Load()) != schema.Busy {
		t.Fatalf("verdict %v, want busy", schema.Outcome(got.Load()))
	}
}

// TestRefereeWaitIsBounded: a contender that never finishes does not hang
// the verdict.
func TestRefereeWaitIsBounded(t *testing.T) {
	r := New(2, record.NewClock(), 10*time.Millisecond)
	r.Attempting(1, "k", 5)
	if got := r.Failed(0, "k", 0, 10, schema.Busy); got != schema.SplitBrain {
		t.Fatalf("verdict %v, want split_brain", got)
	}
}

func TestRefereeCountsFromWarmupEnd(t *testing.T) {
	r := New(2, record.NewClock(), 0)
	r.CountFrom(100)
	play(r, []ev{grantEv(0, "k", 10, 90), grantEv(1, "k", 20, 95), grantEv(0, "j", 150, 400)})
	if got := r.Failed(1, "x", 50, 60, schema.Busy); got != schema.SplitBrain {
		t.Fatalf("verdict %v: the verdict is given in the warmup too", got)
	}
	rep := r.Report()
	if rep.Violations != 0 || rep.BusyToSplit != 0 {
		t.Errorf("warmup counted: violations %d busy→split %d", rep.Violations, rep.BusyToSplit)
	}
	if rep.Acquisitions[0] != 1 || rep.Acquisitions[1] != 0 || rep.MarginUS.Count != 1 {
		t.Errorf("acquisitions %v margins %d, want [1 0] and 1", rep.Acquisitions, rep.MarginUS.Count)
	}
}

func TestJainIndex(t *testing.T) {
	cases := []struct {
		x    []int64
		want float64
	}{
		{[]int64{5, 5, 5, 5}, 1},
		{[]int64{8, 0, 0, 0}, 0.25},
		{[]int64{1, 3}, 0.8},
		{[]int64{0, 0}, 0},
	}
	for _, c := range cases {
		if got := jainIndex(c.x); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("JainIndex(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestRefereeForgetsOldKeys: uncontended runs lock a fresh key per cycle;
// the referee must not keep them all.
func TestRefereeForgetsOldKeys(t *testing.T) {
	r := New(1, record.NewClock(), time.Millisecond)
	const n = 200_000
	step := int64(time.Microsecond * 100)
	r.Granted(0, "held", 0, 0, 1<<62, 0) // never released
	for i := range int64(n) {
		k := "u:" + strconv.FormatInt(i, 10)
		r.Granted(0, k, i*step, i*step+1, i*step+int64(time.Second), 0)
		r.Released(0, k, i*step+2)
		r.Unlocked(0, k, i*step+3)
	}
	kept := 0
	for i := range r.shards {
		kept += len(r.shards[i].keys)
	}
	if got := r.Failed(0, "held", 0, 1, schema.Busy); got != schema.Busy {
		t.Errorf("a grant still held was swept: verdict %v", got)
	}
	// 20 s of history; at most ~1 s (+sweep slack) of it may be kept.
	if kept > n/5 {
		t.Fatalf("%d of %d keys kept", kept, n)
	}
}

// BenchmarkRefereeCycle is the referee's share of one uncontended lock
// cycle: attempting, granted, released, unlocked.
func BenchmarkRefereeCycle(b *testing.B) {
	const workers = 64
	r := New(workers, record.NewClock(), 0)
	keys := make([]string, 4096)
	for i := range keys {
		keys[i] = "lockbench:hot:" + strconv.Itoa(i)
	}
	var id atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := int(id.Add(1)-1) % workers
		var t int64
		for i := 0; pb.Next(); i++ {
			k := keys[(i*workers+w)%len(keys)]
			t += 10
			r.Attempting(w, k, t)
			r.Granted(w, k, t, t+1, t+1000, 0)
			r.Released(w, k, t+2)
			r.Unlocked(w, k, t+3)
		}
	})
}

// BenchmarkRefereeFailedBusy is the verdict on a failed attempt against a
// known holder (the common contended failure).
func BenchmarkRefereeFailedBusy(b *testing.B) {
	r := New(2, record.NewClock(), 0)
	r.Granted(1, "k", 0, 1, 1<<60, 0)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Attempting(0, "k", int64(i))
		if r.Failed(0, "k", int64(i), int64(i)+5, schema.Busy) != schema.Busy {
			b.Fatal("not busy")
		}
	}
}

// BenchmarkRefereeFreshKeys is the uncontended case: a new key per cycle,
// so the shards grow and are swept.
func BenchmarkRefereeFreshKeys(b *testing.B) {
	r := New(1, record.NewClock(), time.Millisecond)
	keys := make([]string, 1<<16)
	for i := range keys {
		keys[i] = "lockbench:u:0:" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	var t int64
	for i := 0; b.Loop(); i++ {
		k := keys[i&(len(keys)-1)]
		t += int64(10 * time.Microsecond)
		r.Attempting(0, k, t)
		r.Granted(0, k, t, t+1, t+int64(time.Second), 0)
		r.Released(0, k, t+2)
		r.Unlocked(0, k, t+3)
	}
}

// TestMemoryPerWorker: what the referee holds per worker is a slot, not a
// histogram: 4032 more workers may cost at most 1 KB each.
// TestKeyLogSize: a key with one grant (a fresh key per cycle, nearly all
// of a fast uncontended run's referee) costs one grant and its counters,
// not a ring of ringSize.
func TestKeyLogSize(t *testing.T) {
	if got, most := unsafe.Sizeof(keyLog{}), unsafe.Sizeof(grant{})+32; got > most {
		t.Errorf("a key's log is %d bytes, want at most %d (one grant inline)", got, most)
	}
}

func TestMemoryPerWorker(t *testing.T) {
	heap := func(workers int) uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		before := m.HeapAlloc
		r := New(workers, record.NewClock(), 0)
		runtime.GC()
		runtime.ReadMemStats(&m)
		runtime.KeepAlive(r)
		return m.HeapAlloc - min(before, m.HeapAlloc)
	}
	small, large := heap(64), heap(4096)
	t.Logf("referee heap: %.1f MB at 64 workers, %.1f MB at 4096", float64(small)/(1<<20), float64(large)/(1<<20))
	if per := (int64(large) - int64(small)) / (4096 - 64); per > 1024 {
		t.Errorf("%d bytes more per worker", per)
	}
}

// TestKeysKeptWithinHorizon: with a fresh key per cycle (uncontended), the
// referee keeps about the keys its sweep horizon needs, not twice them:
// at 50k cycles/s for 10 s of grants, at most 1.3 × the 2 s horizon's
// 100k keys plus each shard's minimum.
func TestKeysKeptWithinHorizon(t *testing.T) {
	r := New(4, record.NewClock(), 0)
	const rate, seconds = 50000, 10
	for i := range rate * seconds {
		at := int64(i) * int64(time.Second) / rate
		key := "k" + strconv.Itoa(i)
		w := i % 4
		r.Granted(w, key, at, at, at+int64(10*time.Second), 0)
		r.Released(w, key, at+1000)
		r.Unlocked(w, key, at+2000)
	}
	kept := 0
	for i := range r.shards {
		kept += len(r.shards[i].keys)
	}
	horizon := int(r.sweepHorizn * rate / int64(time.Second))
	if limit := horizon*13/10 + refShards*256; kept > limit || kept < horizon/2 {
		t.Errorf("%d keys kept: want about the %d of the horizon (at most %d)", kept, horizon, limit)
	}
}
