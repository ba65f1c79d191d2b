package workloads

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/record"
)

// TestRunBarrierSetsTheOrigin: the instant a Barrier returns is the run's
// origin, so several processes that agreed on it measure one window: the
// window starts at that instant plus the warmup, however late the barrier
// returned, and the referee is told the same window. A barrier's error
// ends the run before any worker starts.
func TestRunBarrierSetsTheOrigin(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Workers, cfg.Warmup, cfg.Duration = 2, 100*time.Millisecond, 300*time.Millisecond
	clock := record.NewClock()
	l := &windowLocker{memLocker: memLocker{lease: memLease{until: time.Now().Add(time.Hour)}}, clock: clock}
	// The agreed instant has passed by the time the barrier returns (a
	// process woken late): the window is still the agreed one.
	at := time.Now().Add(-50 * time.Millisecond)
	reg := record.NewRegistry(false)
	env := Env{Locker: l, Registry: reg, Clock: clock, Referee: l,
		Barrier: func(context.Context) (time.Time, error) { return at, nil }}
	if _, err := Run(context.Background(), cfg, env); err != nil {
		t.Fatal(err)
	}
	want := clock.At(at) + int64(cfg.Warmup)
	if l.from != want || l.until != want+int64(cfg.Duration) {
		t.Fatalf("window [%d, %d) on the run clock, want [%d, %d)", l.from, l.until, want, want+int64(cfg.Duration))
	}
	if got := clock.At(reg.Total().Start); got != want {
		t.Fatalf("the registry's window starts at %d, want %d", got, want)
	}

	refused := errors.New("refused")
	l2 := &windowLocker{memLocker: memLocker{lease: memLease{until: time.Now().Add(time.Hour)}}, clock: clock}
	env = Env{Locker: l2, Registry: record.NewRegistry(false), Clock: clock, Referee: l2,
		Barrier: func(context.Context) (time.Time, error) { return time.Time{}, refused }}
	if _, err := Run(context.Background(), cfg, env); !errors.Is(err, refused) {
		t.Fatalf("Run: %v, want the barrier's error", err)
	}
	if n := l2.before.Load() + l2.inside.Load(); n != 0 {
		t.Fatalf("%d attempts after the barrier failed, want none", n)
	}
}
