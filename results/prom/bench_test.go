package prom

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// BenchmarkRecord is the per-sample cost a worker pays, without and with
// the exporter fed on every tick and scraped meanwhile. The exporter never
// runs on the worker's path, so the two should match: compare ns/op.
func BenchmarkRecord(b *testing.B) {
	for _, withExporter := range []bool{false, true} {
		name := "exporter=off"
		if withExporter {
			name = "exporter=on"
		}
		b.Run(name, func(b *testing.B) {
			reg := record.NewRegistry(false)
			rec := reg.NewRecorder()
			e := New()
			cell := e.Cell(Labels{Backend: "redlock", Client: "goredis", Mux: "fanout", Workload: "uncontended", Masters: 5}, 1)
			h := handler(e)
			var stop atomic.Bool
			done := make(chan struct{})
			go func() { // the tick, 1000× faster than a run's, and a scrape each time
				defer close(done)
				for !stop.Load() {
					iv := reg.Tick()
					if withExporter {
						cell.Observe(iv, 0)
						h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/metrics", nil))
					}
					time.Sleep(time.Millisecond)
				}
			}()
			b.ResetTimer()
			for i := range b.N {
				rec.Record(schema.OpCycle, schema.OK, 0, 0, int64(20_000+i%100_000))
			}
			b.StopTimer()
			stop.Store(true)
			<-done
		})
	}
}

// BenchmarkObserve is the exporter's work on one tick of a busy interval
// (every op with 10⁵ samples spread from 20 µs to 120 ms), and a scrape.
func BenchmarkObserve(b *testing.B) {
	reg := record.NewRegistry(false)
	rec := reg.NewRecorder()
	e := New()
	cell := e.Cell(Labels{Backend: "redlock"}, 1)
	h := handler(e)
	b.Run("tick", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			for i := range 100_000 {
				for _, op := range schema.Ops() {
					rec.Record(op, schema.OK, 0, 0, int64(20_000+i*1200))
				}
			}
			iv := reg.Tick()
			b.StartTimer()
			cell.Observe(iv, 0)
		}
	})
	b.Run("scrape", func(b *testing.B) {
		for range b.N {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/metrics", nil))
		}
	})
}
