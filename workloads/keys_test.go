package workloads

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
)

// TestFreshKeysStable: keys written into the arena are distinct, spelled
// prefix:u:worker:n, and never change afterwards (a driver may keep one
// past its cycle); building one costs far less than one allocation.
func TestFreshKeysStable(t *testing.T) {
	src := uncontended{prefix: "p"}.Worker(7)
	const n = 5000
	keys := make([]string, n)
	for i := range keys {
		keys[i] = src.Next()
	}
	for i, k := range keys {
		if want := "p:u:7:" + strconv.Itoa(i+1); k != want {
			t.Fatalf("key %d = %q after %d more, want %q", i, k, n-i, want)
		}
	}
	if a := testing.AllocsPerRun(1000, func() { _ = src.Next() }); a > 0.05 {
		t.Errorf("%.3f allocations per key", a)
	}
}

// TestCycleAllocs: the harness's share of a cycle (key, recorder, referee,
// waits) allocates nothing per cycle, against a locker that allocates
// nothing, for hot keys and fresh ones alike (slabs and arenas amortised).
func TestCycleAllocs(t *testing.T) {
	for _, fresh := range []bool{false, true} {
		clock := record.NewClock()
		env := Env{Locker: &memLocker{lease: memLease{until: time.Now().Add(time.Hour)}},
			Registry: record.NewRegistry(false), Clock: clock, Referee: referee.New(1, clock, 0)}
		w := &worker{cfg: Config{Tries: 1}, env: env, rec: env.Registry.NewRecorder(), flight: newInflight(1), until: math.MaxInt64,
			rnd: rand.New(rand.NewPCG(1, 2)), hold: func(*rand.Rand) time.Duration { return time.Nanosecond }}
		var keys keySource = &hotKeys{keys: contendedKeys("a", 16), rnd: rand.New(rand.NewPCG(1, 2))}
		if fresh {
			keys = uncontended{prefix: "a"}.Worker(0)
		}
		ctx := context.Background()
		cycle := func() { w.cycle(ctx, clock.Now(), keys.Next()) }
		for range 1000 {
			cycle() // the referee's maps and slabs grow to size
		}
		if a := testing.AllocsPerRun(2000, cycle); a > 0.1 {
			t.Errorf("fresh keys %v: %.3f allocations per cycle", fresh, a)
		}
	}
}

// TestFreshKeyArenasSizedToWorkers: every worker holds an arena partly
// written, so what the arenas hold at once is bounded by the run, not
// multiplied by its workers; with thousands of workers each still
// allocates for a couple of dozen keys at a time, not one per cycle.
func TestFreshKeyArenasSizedToWorkers(t *testing.T) {
	const workers = 4096
	gen, err := newGenerator(Config{Workload: "uncontended", Prefix: "lockbench", Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	srcs := make([]keySource, workers)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range srcs {
		srcs[i] = gen.Worker(i)
		_ = srcs[i].Next()
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4*keyArenas {
		t.Errorf("%d workers' first keys allocated %d KiB, want at most %d KiB", workers, grew>>10, 4*keyArenas>>10)
	}
	runtime.KeepAlive(srcs)
	src := gen.Worker(0)
	if a := testing.AllocsPerRun(1000, func() { _ = src.Next() }); a > 0.1 {
		t.Errorf("%.3f allocations per key at %d workers", a, workers)
	}
	if got := keyArenaFor(1); got != keyArena {
		t.Errorf("one worker's arena %d bytes, want the largest, %d", got, keyArena)
	}
}
