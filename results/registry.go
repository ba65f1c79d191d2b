package results

import (
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// Interval is what all workers measured between two ticks.
type Interval struct {
	Start, End time.Time
	shard      *shard
	Dropped    int64 // values outside the histogram geometry
}

// Latency is the merged histogram of op (intended-start latency).
func (iv *Interval) Latency(op Op) *hdrhistogram.Histogram { return iv.shard.lat[op] }

// Service is the merged service-time histogram of op; nil in a closed loop.
func (iv *Interval) Service(op Op) *hdrhistogram.Histogram { return iv.shard.service[op] }

// Count is how many of op ended with outcome.
func (iv *Interval) Count(op Op, o Outcome) int64 { return iv.shard.counts[op][o] }

// Total is how many of op were recorded, any outcome.
func (iv *Interval) Total(op Op) int64 {
	var n int64
	for _, c := range iv.shard.counts[op] {
		n += c
	}
	return n
}

// Registry owns the workers' recorders and merges them on a tick. Its mutex
// guards registration and ticks, never a sample.
type Registry struct {
	mu      sync.Mutex
	service bool
	recs    []*Recorder
	last    time.Time
	iv      *Interval // reused between ticks
	total   *Interval // everything since the last Reset
}

// NewRegistry makes a registry; service keeps separate service-time
// histograms (open-loop runs).
func NewRegistry(service bool) *Registry {
	now := time.Now()
	return &Registry{
		service: service, last: now,
		iv:    &Interval{shard: newShard(service)},
		total: &Interval{shard: newShard(service), Start: now},
	}
}

// NewRecorder registers a worker. Its two shards are allocated here, once.
func (g *Registry) NewRecorder() *Recorder {
	r := &Recorder{spare: newShard(g.service)}
	r.active.Store(newShard(g.service))
	g.mu.Lock()
	g.recs = append(g.recs, r)
	g.mu.Unlock()
	return r
}

// Tick collects every worker's measurements since the last tick into one
// interval and adds it to the total. The returned interval is valid until
// the next Tick or Reset.
func (g *Registry) Tick() *Interval {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	iv := g.iv
	iv.shard.reset()
	iv.Start, iv.End, iv.Dropped = g.last, now, 0
	for _, r := range g.recs {
		old := r.swap()
		iv.Dropped += old.mergeInto(iv.shard)
		old.reset()
		r.spare = old
	}
	g.total.Dropped += iv.shard.mergeInto(g.total.shard) + iv.Dropped
	g.total.End = now
	g.last = now
	return iv
}

// Reset discards everything measured so far (the warmup) and starts the
// total anew.
func (g *Registry) Reset() {
	g.Tick()
	g.mu.Lock()
	defer g.mu.Unlock()
	g.total.shard.reset()
	g.total.Start, g.total.End, g.total.Dropped = g.last, g.last, 0
}

// Total is everything merged since the last Reset, up to the last Tick.
func (g *Registry) Total() *Interval {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.total
}
