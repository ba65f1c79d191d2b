package measure_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/measure"
)

// mutexLocker is a toy in-process lock: one map of held keys under a mutex.
// Any type with Lock and Close is a drivers.Locker lockbench can measure.
type mutexLocker struct {
	mu    sync.Mutex
	held  map[string]uint64
	fence uint64
	ttl   time.Duration
}

func newMutexLocker() *mutexLocker {
	return &mutexLocker{held: map[string]uint64{}, ttl: 10 * time.Second}
}

func (l *mutexLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	start := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.held[key]; ok {
		return nil, drivers.Attempt{Masters: 1, HeldByOther: 1, Elapsed: time.Since(start)}, drivers.ErrBusy
	}
	l.fence++
	l.held[key] = l.fence
	lease := &mutexLease{l: l, key: key, fence: l.fence, until: start.Add(l.ttl)}
	return lease, drivers.Attempt{Masters: 1, Won: 1, Elapsed: time.Since(start), Validity: l.ttl}, nil
}

func (l *mutexLocker) Close() error { return nil }

type mutexLease struct {
	l     *mutexLocker
	key   string
	fence uint64
	until time.Time
}

func (s *mutexLease) Unlock(context.Context) error {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if s.l.held[s.key] != s.fence {
		return drivers.ErrNotHeld
	}
	delete(s.l.held, s.key)
	return nil
}

func (s *mutexLease) Extend(_ context.Context, ttl time.Duration) error {
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if s.l.held[s.key] != s.fence {
		return drivers.ErrNotHeld
	}
	s.until = time.Now().Add(ttl)
	return nil
}

func (s *mutexLease) ValidUntil() time.Time { return s.until }
func (s *mutexLease) Fence() uint64         { return s.fence }

// Measure your own lock: 8 workers contending for 2 keys for a second.
func ExampleMeasureLocker() {
	run, err := measure.MeasureLocker(context.Background(), newMutexLocker(), workloads.Config{
		Workload: "contended", Keys: 2, Workers: 8,
		Duration: time.Second, Warmup: 100 * time.Millisecond,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := run.Counts
	fmt.Println("counts add up:", c.Attempts == c.Acquired+c.Busy+c.SplitBrain+c.Timeouts+c.Errors)
	fmt.Println("acquired some:", c.Acquired > 0)
	fmt.Println("violations:", c.Violations)
	// Output:
	// counts add up: true
	// acquired some: true
	// violations: 0
}

// Measure Redlock over three local redis-server masters that compose starts
// (and stops) for the run.
func ExampleMeasureLocker_redlock() {
	ctx := context.Background()
	masters, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 3, Persistence: "none"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer masters.Close()
	spec := backends.Spec{Backend: "redlock", Client: "goredis", Mux: "auto", Workers: 64,
		Redlock: redlock.DefaultConfig(), Tuning: backends.DefaultTuning()}
	locker, err := backends.Open(ctx, spec, backends.Endpoints{Masters: masters.Endpoints()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer locker.Close()
	run, err := measure.MeasureLocker(ctx, locker, workloads.Config{Workload: "contended", Keys: 16, Workers: 64})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.0f cycles/s, p99 acquire %.0f µs, %d violations\n",
		run.Throughput.CyclesPerS, run.LatencyUS["acquire"].P99, run.Counts.Violations)
}
