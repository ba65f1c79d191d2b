package workloads

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/results/schema"
)

// ttlLocker is one in-memory lock per key with a TTL, like a single master:
// a key stays held until its holder releases it or its TTL passes. drop
// releases are lost (not applied, reported failed) — the lost release reply
// of a real server; block makes every Lock wait without regard for its
// context (a frozen server behind a client that ignores cancellation).
type ttlLocker struct {
	ttl     time.Duration
	drop    atomic.Int64
	block   chan struct{}
	blocked atomic.Int64 // Lock calls that reached block
	mu      sync.Mutex
	held    map[string]*ttlLease
}

type ttlLease struct {
	l     *ttlLocker
	key   string
	until time.Time
}

var errLostRelease = errors.New("test: release reply lost")

func newTTLLocker(ttl time.Duration) *ttlLocker {
	return &ttlLocker{ttl: ttl, held: map[string]*ttlLease{}}
}

func (l *ttlLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	if l.block != nil {
		l.blocked.Add(1)
		<-l.block
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if h := l.held[key]; h != nil && now.Before(h.until) {
		return nil, drivers.Attempt{Masters: 1, HeldByOther: 1}, drivers.ErrBusy
	}
	lease := &ttlLease{l: l, key: key, until: now.Add(l.ttl)}
	l.held[key] = lease
	return lease, drivers.Attempt{Masters: 1, Won: 1, Validity: l.ttl}, nil
}

func (l *ttlLocker) Close() error { return nil }

func (s *ttlLease) Unlock(context.Context) error {
	if s.l.drop.Load() > 0 && s.l.drop.Add(-1) >= 0 {
		return errLostRelease
	}
	s.l.mu.Lock()
	defer s.l.mu.Unlock()
	if s.l.held[s.key] != s {
		return drivers.ErrNotHeld
	}
	delete(s.l.held, s.key)
	return nil
}

func (s *ttlLease) Extend(context.Context, time.Duration) error { return drivers.ErrNotHeld }
func (s *ttlLease) ValidUntil() time.Time                       { return s.until }
func (s *ttlLease) Fence() uint64                               { return 0 }

func runTTL(t *testing.T, l drivers.Locker, cfg Config, budget time.Duration) Result {
	t.Helper()
	clock := record.NewClock()
	reg := record.NewRegistry(false)
	res, err := Run(context.Background(), cfg, Env{Locker: l, Registry: reg, Clock: clock,
		Referee: referee.New(cfg.Workers, clock, 0), ShutdownBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func contendedFor(d time.Duration) Config {
	cfg := DefaultConfig()
	cfg.Workload, cfg.Keys, cfg.Workers, cfg.Warmup, cfg.Duration = "contended", 1, 4, 0, d
	cfg.RetryDelay, cfg.Tries = time.Millisecond, 1<<30
	return cfg
}

// TestStallLeftoverKey: one lost release leaves a contended key held until
// its TTL; the run reports a stall at least the threshold long whose cause
// is the leftover key, with the failed release counted in it. With
// --release-retry the same loss is retried at once: no stall, and the
// failed release and its retry are both counted.
func TestStallLeftoverKey(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for seconds")
	}
	cfg := contendedFor(4 * time.Second)
	// A second on an idle machine; up to two on a busy one, where a starved
	// worker's gap would pass for a stall. The leftover key's is ~3 s.
	cfg.StallAfter = min(slow.D(time.Second), 2*time.Second)
	for _, retry := range []bool{false, true} {
		l := newTTLLocker(3 * time.Second)
		l.drop.Store(1)
		cfg.ReleaseRetry = retry
		res := runTTL(t, l, cfg, 0)
		if retry {
			if len(res.Stalls) != 0 {
				t.Errorf("release-retry: stalled %v", res.Stalls)
			}
			continue
		}
		if len(res.Stalls) == 0 {
			t.Fatal("one lost release on a contended key: no stall reported")
		}
		s := res.Stalls[0]
		if s.Cause != schema.CauseLeftoverKey || s.ReleaseErrors != 1 || s.Duration <= cfg.StallAfter || s.Timeouts+s.Errors != 0 {
			t.Errorf("stall %+v: want a leftover key after 1 failed release, longer than %v", s, cfg.StallAfter)
		}
	}
}

// TestUnfinishedAndStuck: cycles cut short by the window's end are counted
// unfinished by phase with their wait, not dropped; a worker blocked in a
// call that ignores its context is left behind after the shutdown budget,
// counted stuck, and the run returns.
func TestUnfinishedAndStuck(t *testing.T) {
	cfg := contendedFor(300 * time.Millisecond)
	cfg.Workload, cfg.Hold = "uncontended", time.Hour
	res := runTTL(t, newTTLLocker(2*time.Hour), cfg, 0)
	u := res.Unfinished
	if u == nil || u.Cycles != 4 || u.Holding != 4 || u.MaxWaitUS < 250e3 || u.Stuck != 0 {
		t.Errorf("hold 1h: unfinished %+v, want 4 holding cycles that waited the window", u)
	}
	if len(res.Stalls) != 0 { // shorter than the threshold
		t.Errorf("stalls %v in a window shorter than the threshold", res.Stalls)
	}

	blocked := newTTLLocker(time.Second)
	blocked.block = make(chan struct{})
	defer close(blocked.block)
	start := time.Now()
	cpu := slow.WatchCPU()
	res = runTTL(t, blocked, contendedFor(100*time.Millisecond), 200*time.Millisecond)
	if took := time.Since(start); took > time.Minute {
		t.Errorf("blocked workers: the run took %v", took)
	}
	// A worker that reached Lock within the window never returns: it is
	// stuck, its cycle unfinished while acquiring. One that got no CPU
	// until the window had ended returned without a cycle.
	n := blocked.blocked.Load()
	if n == 0 {
		if share := cpu.Share(); share.Slowdown() >= slow.Starved {
			t.Skipf("inconclusive: no worker reached Lock within the 100 ms window; %v", share)
		}
		t.Fatalf("no worker reached Lock within the 100 ms window (%v)", cpu.Share())
	}
	if u := res.Unfinished; u == nil || u.Stuck < n || u.Acquiring != u.Cycles || (n == 4 && (u.Stuck != 4 || u.Acquiring != 4)) {
		t.Errorf("blocked workers: unfinished %+v, want the %d blocked in Lock stuck while acquiring", u, n)
	}
}

// TestStallThreshold: an explicit threshold is taken as given; the
// automatic one is never under a second and grows with the hold and the
// open loop's interval.
func TestStallThreshold(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want time.Duration
	}{
		{Config{}, time.Second},
		{Config{StallAfter: 50 * time.Millisecond, Hold: time.Hour}, 50 * time.Millisecond},
		{Config{Hold: 200 * time.Millisecond}, 2 * time.Second},
		{Config{Rate: 2}, 5 * time.Second},
	} {
		if got := stallThreshold(c.cfg); got != c.want {
			t.Errorf("%+v: %v, want %v", c.cfg, got, c.want)
		}
	}
}
