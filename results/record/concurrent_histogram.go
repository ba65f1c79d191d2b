package record

import hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"

// ConcurrentHistogram counts nanosecond values from many goroutines in the
// run geometry: a fixed number of atomic bucket arrays (as many as a
// registry has shards), goroutine i adding into array i mod that number.
// Add takes no lock and allocates nothing. The referee keeps its validity
// margins in one.
type ConcurrentHistogram struct{ shards []buckets }

// NewConcurrentHistogram serves goroutines goroutines; its memory is fixed
// by the CPUs, never by the goroutines.
func NewConcurrentHistogram(goroutines int) *ConcurrentHistogram {
	return &ConcurrentHistogram{shards: make([]buckets, min(numShards(), max(goroutines, 1)))}
}

// Add counts v for goroutine i; false if v is outside the geometry.
func (c *ConcurrentHistogram) Add(i int, v int64) bool { return c.shards[i%len(c.shards)].add(v) }

// Histogram is every value added so far, as one histogram of the run
// geometry; the counts stay (call it once the goroutines have stopped).
func (c *ConcurrentHistogram) Histogram() *hdrhistogram.Histogram {
	h := NewHistogram()
	for i := range c.shards {
		c.shards[i].addTo(h)
	}
	return h
}
