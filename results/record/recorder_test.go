package record

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// Workers record while the registry ticks, several to a shard: every sample
// lands in exactly one interval, none lost or counted twice.
func TestRegistryTickLosesNothing(t *testing.T) {
	g := NewRegistry(false)
	workers, per := 3*numShards()+1, 5000
	var wg sync.WaitGroup
	var stop atomic.Bool
	for w := range workers {
		r := g.NewRecorder()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				v := int64(1000 + (i*w)%50000)
				r.Record(schema.OpAcquire, schema.OK, 0, 0, v)
			}
		}()
	}
	var ticked int64
	done := make(chan struct{})
	go func() {
		for !stop.Load() {
			ticked += g.Tick().Total(schema.OpAcquire)
		}
		close(done)
	}()
	wg.Wait()
	stop.Store(true)
	<-done
	ticked += g.Tick().Total(schema.OpAcquire)
	if ticked != int64(workers*per) {
		t.Fatalf("intervals counted %d samples, want %d", ticked, workers*per)
	}
	if n := g.Total().Latency(schema.OpAcquire).TotalCount(); n != int64(workers*per) {
		t.Fatalf("total histogram has %d samples, want %d", n, workers*per)
	}
}

// TestRegistryWindow: a sample counts if and only if it ended inside
// [from, until), whenever it is recorded, and the total spans exactly the
// window.
func TestRegistryWindow(t *testing.T) {
	const from, until = 1_000_000, 5_000_000
	cases := []struct {
		name string
		end  int64
		in   bool
	}{
		{"before the window (warmup)", from - 1, false},
		{"at the window start", from, true},
		{"inside", 3_000_000, true},
		{"last nanosecond", until - 1, true},
		{"at the deadline", until, false},
		{"after the deadline", until + 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := NewClock()
			g := NewRegistry(true)
			g.SetWindow(clock, from, until)
			r := g.NewRecorder()
			r.Record(schema.OpAcquire, schema.OK, c.end-500, c.end-400, c.end)
			r.Count(schema.OpAcquireTotal, schema.Busy, c.end)
			g.Tick()
			want := map[bool]int64{true: 1, false: 0}[c.in]
			tot := g.Total()
			if tot.Count(schema.OpAcquire, schema.OK) != want || tot.Latency(schema.OpAcquire).TotalCount() != want ||
				tot.Service(schema.OpAcquire).TotalCount() != want || tot.Count(schema.OpAcquireTotal, schema.Busy) != want {
				t.Errorf("sample ending at %d: counted %d, histograms %d/%d, want %d", c.end, tot.Count(schema.OpAcquire, schema.OK),
					tot.Latency(schema.OpAcquire).TotalCount(), tot.Service(schema.OpAcquire).TotalCount(), want)
			}
			if !tot.Start.Equal(clock.Time(from)) || tot.End.After(clock.Time(until)) {
				t.Errorf("total spans %v – %v, window %v – %v", tot.Start, tot.End, clock.Time(from), clock.Time(until))
			}
		})
	}
}

func TestResetDropsWarmup(t *testing.T) {
	g := NewRegistry(true)
	r := g.NewRecorder()
	r.Record(schema.OpCycle, schema.OK, 0, 0, 5000)
	g.Reset()
	r.Record(schema.OpCycle, schema.OK, 0, 1000, 9000)
	g.Tick()
	tot := g.Total()
	if n := tot.Count(schema.OpCycle, schema.OK); n != 1 {
		t.Fatalf("after reset: %d cycles, want 1", n)
	}
	if got := tot.Latency(schema.OpCycle).Max(); !tot.Latency(schema.OpCycle).ValuesAreEquivalent(got, 9000) {
		t.Fatalf("latency from intended start: max %d, want ~9000", got)
	}
	if got := tot.Service(schema.OpCycle).Max(); !tot.Service(schema.OpCycle).ValuesAreEquivalent(got, 8000) {
		t.Fatalf("service time from actual start: max %d, want ~8000", got)
	}
}

func TestFillCloses(t *testing.T) {
	g := NewRegistry(false)
	r := g.NewRecorder()
	for o, n := range map[schema.Outcome]int{schema.OK: 5, schema.Busy: 3, schema.SplitBrain: 2, schema.Timeout: 1, schema.Error: 1} {
		for range n {
			r.Record(schema.OpAcquire, o, 0, 0, 2000)
		}
	}
	r.Count(schema.OpAcquireTotal, schema.Busy, 2000)
	g.Tick()
	var run schema.Run
	Fill(&run, g.Total())
	c := run.Counts
	if c.Attempts != 12 || c.Acquired+c.Busy+c.SplitBrain+c.Timeouts+c.Errors != c.Attempts {
		t.Fatalf("counts do not close: %+v", c)
	}
	if c.GaveUp != 1 {
		t.Fatalf("gave_up = %d, want 1", c.GaveUp)
	}
	if run.SplitBrainRate != 2.0/5.0 {
		t.Fatalf("split_brain_rate = %v, want 0.4", run.SplitBrainRate)
	}
	if run.RetriesPerAcquire != 7.0/5.0 {
		t.Fatalf("retries_per_acquire = %v, want 1.4", run.RetriesPerAcquire)
	}
}

// BenchmarkRecord is the cost of recording one sample on the hot path
// (target ≤ 50 ns, 0 allocs).
func BenchmarkRecord(b *testing.B) {
	g := NewRegistry(false)
	r := g.NewRecorder()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Record(schema.OpAcquire, schema.OK, 0, 0, int64(20_000+i&0xffff))
	}
}

// BenchmarkRecordParallel records from every P at once into per-worker
// recorders while a ticker merges: no shared cache line, no lock.
func BenchmarkRecordParallel(b *testing.B) {
	g := NewRegistry(false)
	b.ReportAllocs()
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				g.Tick()
			}
		}
	}()
	b.RunParallel(func(pb *testing.PB) {
		r := g.NewRecorder()
		i := 0
		for pb.Next() {
			i++
			r.Record(schema.OpAcquire, schema.OK, 0, 0, int64(20_000+i&0xffff))
		}
	})
	close(stop)
}
