package record

import (
	"math"
	"math/bits"
	"runtime"
	"sync/atomic"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The run geometry's bucket layout, as hdrhistogram-go computes it for
// NewHistogram (LowestNS, HighestNS, SigFigs): index i of a buckets array is
// index i of the histogram's counts, so a drained buckets array is the
// histogram that recording every value would have made (TestBucketsGeometry).
var (
	unitMagnitude      = int(math.Floor(math.Log2(LowestNS)))
	subHalfMagnitude   = int(math.Ceil(math.Log2(2*math.Pow10(sigFigs)))) - 1
	subBucketHalfCount = 1 << subHalfMagnitude
	subBucketMask      = uint64(2*subBucketHalfCount-1) << unitMagnitude
)

const countsLen = 27 * 1024 // (buckets needed for HighestNS + 1) × sub-bucket half count; checked by TestBucketsGeometry

const touchedWords = countsLen / 64

// bucketIndex is hdrhistogram-go's countsIndexFor in the run geometry.
func bucketIndex(v int64) int {
	bucket := 64 - bits.LeadingZeros64(uint64(v)|subBucketMask) - unitMagnitude - (subHalfMagnitude + 1)
	sub := int(v >> (bucket + unitMagnitude))
	return (bucket+1)<<subHalfMagnitude + sub - subBucketHalfCount
}

// bucketValue is the lowest value of bucket index i: recording it lands at i.
func bucketValue(i int) int64 {
	bucket := i>>subHalfMagnitude - 1
	sub := i&(subBucketHalfCount-1) + subBucketHalfCount
	if bucket < 0 {
		bucket, sub = 0, i
	}
	return int64(sub) << (bucket + unitMagnitude)
}

// buckets counts values in the run geometry with atomic adds, so any number
// of workers share one without a lock. touched has a bit per bucket that
// was counted since the last drain: draining walks 432 words and then only
// the buckets actually used, not the 27 648 of a 1 ns–1 h histogram.
type buckets struct {
	touched [touchedWords]atomic.Uint64
	n       [countsLen]atomic.Int64
}

// add counts v; false if v is outside the geometry (negative or too large).
// One atomic add, and an atomic or the first time a bucket is used after a
// drain.
func (b *buckets) add(v int64) bool {
	if v < 0 {
		return false
	}
	i := bucketIndex(v)
	if uint(i) >= countsLen {
		return false
	}
	b.n[i].Add(1)
	// Add before marking: a drain that clears the bit after this load saw
	// the add (it swaps the word, then the count); one that cleared it
	// before finds it set again by the Or, next time.
	if w, bit := &b.touched[i>>6], uint64(1)<<(i&63); w.Load()&bit == 0 {
		w.Or(bit)
	}
	return true
}

// drain moves every count into acc and zeroes it. A sample added during a
// drain lands in this drain or the next, never both or neither.
func (b *buckets) drain(acc *accumulator) {
	for wi := range b.touched {
		if b.touched[wi].Load() == 0 {
			continue
		}
		w := b.touched[wi].Swap(0)
		acc.touched[wi] |= w
		for ; w != 0; w &= w - 1 {
			i := wi<<6 + bits.TrailingZeros64(w)
			acc.n[i] += b.n[i].Swap(0)
		}
	}
}

// accumulator sums drained buckets (of every shard) so each bucket used is
// recorded into the histograms once per tick, not once per shard.
type accumulator struct {
	touched [touchedWords]uint64
	n       [countsLen]int64
}

// flush records the sums into dst and also (either may be nil) and clears
// the accumulator.
func (a *accumulator) flush(dst, also *hdrhistogram.Histogram) {
	for wi, w := range a.touched {
		if w == 0 {
			continue
		}
		a.touched[wi] = 0
		for ; w != 0; w &= w - 1 {
			i := wi<<6 + bits.TrailingZeros64(w)
			if c := a.n[i]; c > 0 {
				a.n[i] = 0
				record(dst, i, c)
				record(also, i, c)
			}
		}
	}
}

// addTo adds every count into dst, leaving them (a report read at the end).
func (b *buckets) addTo(dst *hdrhistogram.Histogram) {
	for wi := range b.touched {
		for w := b.touched[wi].Load(); w != 0; w &= w - 1 {
			i := wi<<6 + bits.TrailingZeros64(w)
			if c := b.n[i].Load(); c > 0 {
				record(dst, i, c)
			}
		}
	}
}

func record(h *hdrhistogram.Histogram, i int, c int64) {
	if h != nil {
		_ = h.RecordValues(bucketValue(i), c) // in range by construction
	}
}

// numShards is how many shards a registry or referee spreads its workers
// over: enough that workers running at the same time rarely share one, and
// fixed by the CPUs, never by the workers.
func numShards() int { return min(max(2*runtime.GOMAXPROCS(0), 2), 64) }
