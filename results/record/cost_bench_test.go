package record

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// tickSamples is one busy second: 20 000 cycles/s, four ops each.
const tickSamples = 20_000

// fillRecorders records one second of tickSamples per op, spread over all
// recorders (each records its share) and over 20 µs – 5 ms.
func fillRecorders(recs []*Recorder) {
	for j := range tickSamples {
		r := recs[j%len(recs)]
		v := int64(20_000 + (j*j*211)%5_000_000)
		for op := range schema.NumOps - 1 {
			r.Record(schema.Op(op), schema.OK, 0, 0, v)
		}
	}
}

// BenchmarkTick is the registry's once-a-second merge at 64, 256 and 4096
// workers after a busy second (fillRecorders): the harness's own cost per
// second of a run (ms/tick is the figure; target ≤ 5 ms at 256).
func BenchmarkTick(b *testing.B) {
	for _, workers := range []int{64, 256, 4096} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			g := NewRegistry(false)
			recs := make([]*Recorder, workers)
			for i := range recs {
				recs[i] = g.NewRecorder()
			}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				fillRecorders(recs)
				b.StartTimer()
				g.Tick()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/tick")
		})
	}
}

// BenchmarkMemory is the heap a run's measurement holds at 256 and 4096
// workers: a registry (open loop: service-time histograms too) with one
// recorder per worker, the referee's margins, and one tick's worth of
// samples (the referee's own memory: package referee's TestMemoryPerWorker). MB is
// the figure (the live heap after a GC).
func BenchmarkMemory(b *testing.B) {
	for _, workers := range []int{256, 4096} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var mb float64
			for b.Loop() {
				mb = float64(measureHeap(workers)) / (1 << 20)
			}
			b.ReportMetric(mb, "MB")
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// measureHeap is the live heap a registry (open loop) and a referee's
// margins hold for workers workers after one tick of samples.
func measureHeap(workers int) uint64 {
	before := liveHeap()
	g := NewRegistry(true)
	ref := NewConcurrentHistogram(workers)
	recs := make([]*Recorder, workers)
	for i := range recs {
		recs[i] = g.NewRecorder()
	}
	fillRecorders(recs)
	g.Tick()
	after := liveHeap()
	runtime.KeepAlive(g)
	runtime.KeepAlive(ref)
	runtime.KeepAlive(recs)
	return after - min(before, after)
}

// TestMemoryIndependentOfWorkers: what measurement holds per worker is a
// handle, not histograms: 4032 more workers may cost at
// most 1 KB each.
func TestMemoryIndependentOfWorkers(t *testing.T) {
	small, large := measureHeap(64), measureHeap(4096)
	t.Logf("live heap: %.1f MB at 64 workers, %.1f MB at 4096", float64(small)/(1<<20), float64(large)/(1<<20))
	if per := (int64(large) - int64(small)) / (4096 - 64); per > 1024 {
		t.Errorf("%d bytes more per worker", per)
	}
}
