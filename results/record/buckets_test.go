package record

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBucketsGeometry: the bucket layout is hdrhistogram-go's for the run
// geometry — every bucket's lowest value records at that index, its counts
// array is countsLen long, and values drained from buckets make the same
// histogram (counts and percentiles) as recording them directly.
func TestBucketsGeometry(t *testing.T) {
	h := NewHistogram()
	if n := len(h.Export().Counts); n != countsLen {
		t.Fatalf("histogram has %d counts, buckets %d", n, countsLen)
	}
	for i := range countsLen {
		v := bucketValue(i)
		if got := bucketIndex(v); got != i {
			t.Fatalf("bucketValue(%d) = %d indexes %d", i, v, got)
		}
		if i > 0 && !(v > bucketValue(i-1)) {
			t.Fatalf("bucket values not increasing at %d", i)
		}
	}
	cases := []struct {
		name string
		gen  func(r *rand.Rand) int64
	}{
		{"µs to ms", func(r *rand.Rand) int64 { return 20_000 + r.Int64N(5_000_000) }},
		{"every scale", func(r *rand.Rand) int64 { return r.Int64N(1 << r.IntN(42)) }},
		{"edges", func(r *rand.Rand) int64 {
			return []int64{0, 1, 63, 64, 131071, 131072, HighestNS, HighestNS + 1, -1, 1 << 62}[r.IntN(10)]
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			want := NewHistogram()
			var b buckets
			var droppedWant, droppedGot int
			for range 200_000 {
				v := c.gen(r)
				if want.RecordValue(v) != nil {
					droppedWant++
				}
				if !b.add(v) {
					droppedGot++
				}
			}
			got := NewHistogram()
			var acc accumulator
			b.drain(&acc)
			acc.flush(got, nil)
			if droppedGot != droppedWant {
				t.Errorf("dropped %d, hdrhistogram %d", droppedGot, droppedWant)
			}
			if !slices.Equal(got.Export().Counts, want.Export().Counts) || got.TotalCount() != want.TotalCount() {
				t.Fatal("drained counts differ from the histogram's")
			}
			if g, w := Summarize(got), Summarize(want); g != w {
				t.Errorf("percentiles %+v, want %+v", g, w)
			}
			if got.Min() != want.Min() || got.Max() != want.Max() {
				t.Errorf("min/max %d/%d, want %d/%d", got.Min(), got.Max(), want.Min(), want.Max())
			}
			again := NewHistogram()
			b.drain(&acc)
			acc.flush(again, nil)
			if again.TotalCount() != 0 {
				t.Errorf("a second drain found %d", again.TotalCount())
			}
		})
	}
}
