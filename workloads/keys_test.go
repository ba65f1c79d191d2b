package workloads

import (
	"context"
	"math"
	"math/rand/v2"
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
