package workloads_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/workloads"
)

// seed sets key to token on the given masters, as another client's
// half-finished attempt would.
func seed(t *testing.T, r *compose.Redis, key, token string, masters ...int) {
	t.Helper()
	for _, i := range masters {
		c := redis.NewClient(r.Servers[i].Endpoint().GoRedis())
		err := c.Set(context.Background(), key, token, time.Minute).Err()
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestRefereeSplitVote: masters pre-seeded so that two contenders each hold
// a minority. Every master answers, the client sees a majority held by
// others and calls it busy — but nobody holds the lock: the referee records
// split_brain. The control seeds a majority for a holder the referee knows
// of: busy.
func TestRefereeSplitVote(t *testing.T) {
	testenv.Servers(t)
	cases := []struct {
		name  string
		seeds map[string][]int // token → masters
		held  bool             // a known holder has the key
		want  schema.Outcome
	}{
		{"two minorities, one master free", map[string][]int{"A": {0, 1}, "B": {2, 3}}, false, schema.SplitBrain},
		{"two minorities, two masters free", map[string][]int{"A": {0, 1}, "B": {2}}, false, schema.SplitBrain},
		{"a known holder has a majority", map[string][]int{"H": {0, 1, 2}}, true, schema.Busy},
	}
	r := startMasters(t, 5)
	// A generous node timeout: a master slow to answer on a loaded machine
	// would turn a refusal into a timeout.
	l := openLocker(t, r, 1, 0, time.Second)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := workloads.DefaultConfig()
			cfg.Workload, cfg.Keys, cfg.Workers, cfg.Warmup, cfg.Duration = "contended", 1, 1, 0, 300*time.Millisecond
			cfg.Prefix, cfg.Tries, cfg.RetryDelay = "split"+string(rune('a'+i)), 5, time.Millisecond
			key := workloads.ContendedKeys(cfg.Prefix, 1)[0]
			for token, ms := range c.seeds {
				seed(t, r, key, token, ms...)
			}
			clock := record.NewClock()
			reg := record.NewRegistry(false)
			ref := referee.New(2, clock, 0) // worker 1: the pre-seeded holder
			if c.held {
				now := clock.Now()
				ref.Granted(1, key, now, now, now+int64(time.Minute), 0)
			}
			if _, err := workloads.Run(context.Background(), cfg, workloads.Env{Locker: l, Registry: reg, Clock: clock, Referee: ref}); err != nil {
				t.Fatal(err)
			}
			var run schema.Run
			record.Fill(&run, reg.Total())
			cn := run.Counts
			t.Logf("%+v", cn)
			if cn.Attempts == 0 {
				t.Fatal("no attempts")
			}
			got := map[schema.Outcome]int64{schema.Busy: cn.Busy, schema.SplitBrain: cn.SplitBrain}
			if got[c.want] != cn.Attempts || cn.Acquired != 0 {
				t.Errorf("want every attempt %v: %+v", c.want, cn)
			}
			if sum := cn.Acquired + cn.Busy + cn.SplitBrain + cn.Timeouts + cn.Errors; sum != cn.Attempts {
				t.Errorf("accounting: %d classified of %d attempts", sum, cn.Attempts)
			}
		})
	}
}

// TestRefereeViolation: a client holds the lock; a majority of masters
// restarts without persistence (the key is gone); a second client acquires.
// Exactly that overlap is a violation. Without the restart the second client
// is refused and nothing is counted.
func TestRefereeViolation(t *testing.T) {
	testenv.Servers(t)
	for _, restart := range []bool{true, false} {
		name := map[bool]string{true: "majority restarted", false: "no restart"}[restart]
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			r := startMasters(t, 5)
			first, second := openLocker(t, r, 1, 0, time.Second), openLocker(t, r, 1, 0, time.Second)
			clock := record.NewClock()
			ref := referee.New(2, clock, 0)
			key := "violation:k"

			s := clock.Now()
			ref.Attempting(0, key, s)
			lease, _, err := first.Lock(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			ref.Granted(0, key, s, clock.Now(), clock.At(lease.ValidUntil()), lease.Fence())

			if restart {
				for _, m := range r.Servers[:3] {
					if err := m.Kill(); err != nil {
						t.Fatal(err)
					}
					if err := m.Start(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			s = clock.Now()
			ref.Attempting(1, key, s)
			lease2, _, err := second.Lock(ctx, key)
			e := clock.Now()
			switch {
			case restart && err != nil:
				t.Fatalf("second client after the restart: %v", err)
			case !restart && err == nil:
				t.Fatal("second client acquired a held lock")
			case err == nil:
				ref.Granted(1, key, s, e, clock.At(lease2.ValidUntil()), lease2.Fence())
				_ = lease2.Unlock(ctx)
			default:
				if v := ref.Failed(1, key, s, e, schema.Busy); v != schema.Busy {
					t.Errorf("second client's failure judged %v, want busy", v)
				}
			}
			_ = lease.Unlock(ctx)
			want := map[bool]int64{true: 1, false: 0}[restart]
			if rep := ref.Report(); rep.Violations != want || rep.Overlaps != want {
				t.Errorf("violations %d (overlaps %d), want %d", rep.Violations, rep.Overlaps, want)
			}
		})
	}
}

// TestRefereeContendedRun: healthy masters, workers fighting over two keys.
// Redlock is safe here, so any violation is a referee bug; every attempt
// lands in exactly one class, and the referee saw every acquisition.
func TestRefereeContendedRun(t *testing.T) {
	testenv.Servers(t)
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	r := startMasters(t, 5)
	l := openLocker(t, r, 8, 0, 0)
	cfg := workloads.DefaultConfig()
	cfg.Workload, cfg.Keys, cfg.Workers, cfg.Warmup, cfg.Duration = "contended", 2, 8, 0, time.Second
	cfg.Prefix, cfg.Hold, cfg.HoldDist, cfg.RetryDelay = "contended-run", time.Millisecond, "exp", 2*time.Millisecond
	run, _ := measure(t, l, cfg, nil)
	c := run.Counts
	t.Logf("%+v fairness %.3f margin %+v", c, run.Fairness, *run.ValidityMarginUS)
	if c.Acquired == 0 || c.Busy+c.SplitBrain == 0 {
		t.Fatalf("no contention measured: %+v", c)
	}
	if c.Violations != 0 {
		t.Errorf("%d violations on healthy masters", c.Violations)
	}
	if sum := c.Acquired + c.Busy + c.SplitBrain + c.Timeouts + c.Errors; sum != c.Attempts {
		t.Errorf("accounting: %d classified of %d attempts", sum, c.Attempts)
	}
	if run.ValidityMarginUS.Count != c.Acquired {
		t.Errorf("referee saw %d grants, recorder %d", run.ValidityMarginUS.Count, c.Acquired)
	}
	if run.Fairness <= 0 || run.Fairness > 1 {
		t.Errorf("fairness %v outside (0, 1]", run.Fairness)
	}
}
