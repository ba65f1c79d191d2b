package record

import (
	"math"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/lockbench/lockbench/results/schema"
)

// Interval is what all workers measured between two ticks.
type Interval struct {
	Start, End time.Time
	lat        [schema.NumOps]*hdrhistogram.Histogram
	service    [schema.NumOps]*hdrhistogram.Histogram
	counts     [schema.NumOps][schema.NumOutcomes]int64
	Dropped    int64 // values outside the histogram geometry
}

func newInterval(service bool) *Interval {
	iv := &Interval{}
	for i := range iv.lat {
		iv.lat[i] = NewHistogram()
		if service {
			iv.service[i] = NewHistogram()
		}
	}
	return iv
}

// reset clears only histograms that hold something: clearing is a memclr of
// the whole counts array, and most ticks leave some ops (extend) untouched.
func (iv *Interval) reset() {
	for i := range iv.lat {
		resetIfUsed(iv.lat[i])
		resetIfUsed(iv.service[i])
	}
	iv.counts = [schema.NumOps][schema.NumOutcomes]int64{}
	iv.Dropped = 0
}

func resetIfUsed(h *hdrhistogram.Histogram) {
	if h != nil && h.TotalCount() > 0 {
		h.Reset()
	}
}

// Latency is the merged histogram of op (intended-start latency).
func (iv *Interval) Latency(op schema.Op) *hdrhistogram.Histogram { return iv.lat[op] }

// Service is the merged service-time histogram of op; nil in a closed loop.
func (iv *Interval) Service(op schema.Op) *hdrhistogram.Histogram { return iv.service[op] }

// Count is how many of op ended with outcome.
func (iv *Interval) Count(op schema.Op, o schema.Outcome) int64 { return iv.counts[op][o] }

// Total is how many of op were recorded, any outcome.
func (iv *Interval) Total(op schema.Op) int64 {
	var n int64
	for _, c := range iv.counts[op] {
		n += c
	}
	return n
}

// Registry hands out recorders over a fixed set of shards and drains them
// into an interval on a tick. Its mutex guards registration and ticks,
// never a sample.
type Registry struct {
	mu      sync.Mutex
	service bool
	shards  []*shard
	win     *window
	nrec    int
	// from, until: the window as wall times (zero: unbounded).
	from, until time.Time
	last        time.Time
	iv          *Interval // reused between ticks
	total       *Interval // everything since the window start (or Reset)
	acc         accumulator
}

// NewRegistry makes a registry; service keeps separate service-time
// histograms (open-loop runs). Until SetWindow, every sample is recorded.
func NewRegistry(service bool) *Registry {
	now := time.Now()
	g := &Registry{service: service, last: now, win: newWindow(), iv: newInterval(service), total: newInterval(service)}
	g.total.Start = now
	for range numShards() {
		g.shards = append(g.shards, newShard(service))
	}
	return g
}

// SetWindow sets the measured window, [from, until) on clock: samples that
// end outside it are not recorded, the total starts at from and no
// interval extends past until. Call it before any worker records.
func (g *Registry) SetWindow(clock Clock, from, until int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.win.set(from, until)
	g.from, g.until = clock.Time(from), clock.Time(until)
	if until == math.MaxInt64 {
		g.until = time.Time{}
	}
	g.last = g.from
	g.total.Start, g.total.End = g.from, g.from
}

// NewRecorder registers a worker: it shares shard (worker number mod
// shards) with others. Nothing is allocated per worker but the handle.
func (g *Registry) NewRecorder() *Recorder {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := &Recorder{s: g.shards[g.nrec%len(g.shards)], win: g.win}
	g.nrec++
	return r
}

// Tick drains every shard into one interval, from the last tick (or the
// window start) to now (at most the window end), and adds it to the total.
// A sample recorded during the tick lands in this interval or the next.
// The returned interval is valid until the next Tick or Reset.
func (g *Registry) Tick() *Interval {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if !g.until.IsZero() && now.After(g.until) {
		now = g.until
	}
	if now.Before(g.last) {
		now = g.last // a tick before the window starts: an empty interval at its start
	}
	iv, tot := g.iv, g.total
	iv.reset()
	iv.Start, iv.End = g.last, now
	for op := range iv.lat {
		for _, s := range g.shards {
			s.lat[op].drain(&g.acc)
		}
		g.acc.flush(iv.lat[op], tot.lat[op])
		if g.service {
			for _, s := range g.shards {
				s.service[op].drain(&g.acc)
			}
			g.acc.flush(iv.service[op], tot.service[op])
		}
	}
	for _, s := range g.shards {
		for op := range s.counts {
			for o := range s.counts[op] {
				if s.counts[op][o].Load() != 0 {
					iv.counts[op][o] += s.counts[op][o].Swap(0)
				}
			}
		}
		if s.dropped.Load() != 0 {
			iv.Dropped += s.dropped.Swap(0)
		}
	}
	for op := range iv.counts {
		for o, n := range iv.counts[op] {
			tot.counts[op][o] += n
		}
	}
	tot.Dropped += iv.Dropped
	tot.End = now
	g.last = now
	return iv
}

// Reset discards everything measured so far and starts the total anew.
func (g *Registry) Reset() {
	g.Tick()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total.reset()
	g.total.Start, g.total.End = g.last, g.last
}

// Total is everything merged since the window start (or the last Reset),
// up to the last Tick.
func (g *Registry) Total() *Interval {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total
}
