package workloads

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
)

// memLocker grants every attempt at once: the cycle's cost without a network.
type memLocker struct{ lease memLease }

func (m *memLocker) Lock(context.Context, string) (drivers.Lease, drivers.Attempt, error) {
	return &m.lease, drivers.Attempt{Masters: 1, Won: 1}, nil
}
func (m *memLocker) Close() error { return nil }

type memLease struct{ until time.Time }

func (l *memLease) Unlock(context.Context) error                { return nil }
func (l *memLease) Extend(context.Context, time.Duration) error { return nil }
func (l *memLease) ValidUntil() time.Time                       { return l.until }
func (l *memLease) Fence() uint64                               { return 0 }

// BenchmarkCycleOverhead is the harness's own cost per lock cycle (recorder,
// referee, the pause-client hook), against a locker that costs nothing: a
// part's share is the difference between sub-benchmarks. stalls: a Stalls
// set with nothing armed, which must cost one atomic load per cycle.
// keys=uncontended: a fresh key per cycle (generator and referee key log).
// go test -run XXX -bench CycleOverhead -benchtime 200000x ./workloads/
func BenchmarkCycleOverhead(b *testing.B) {
	hot := contendedKeys("bench", 1024)
	for _, c := range []struct {
		name                   string
		referee, stalls, fresh bool
	}{{"referee=false", false, false, false}, {"referee=true", true, false, false}, {"stalls", false, true, false},
		{"referee=true,keys=uncontended", true, false, true}} {
		b.Run(c.name, func(b *testing.B) {
			clock := record.NewClock()
			env := Env{Locker: &memLocker{lease: memLease{until: time.Now().Add(time.Hour)}},
				Registry: record.NewRegistry(false), Clock: clock, Referee: noReferee{}}
			if c.referee {
				env.Referee = referee.New(1, clock, 0)
			}
			if c.stalls {
				env.Stalls = NewStalls(1)
			}
			w := &worker{cfg: Config{Tries: 1}, env: env, rec: env.Registry.NewRecorder(), flight: newInflight(1), until: math.MaxInt64,
				rnd: rand.New(rand.NewPCG(1, 2)), hold: func(*rand.Rand) time.Duration { return 0 }}
			// fresh: a new key every cycle from the uncontended generator
			// (key building and the referee's per-key log included).
			fresh := uncontended{prefix: "bench"}.Worker(0)
			ctx := context.Background()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				key := hot[i&1023]
				if c.fresh {
					key = fresh.Next()
				}
				w.cycle(ctx, clock.Now(), key)
			}
		})
	}
}
