package backends_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/drivers/redsync"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
)

func openPeer(t *testing.T, spec backends.Spec, at backends.Endpoints) drivers.Locker {
	t.Helper()
	l, err := backends.Open(context.Background(), spec, at)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRedsyncConformance: redsync over the same 5 masters, with and
// without fail-fast.
func TestRedsyncConformance(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // shares TestMain's masters on keys of its own: overlaps the other conformance tests
	for _, noFailFast := range []bool{false, true} {
		spec := backends.Spec{Backend: "redsync", Workers: 16, Redlock: redlock.DefaultConfig()}
		backends.Update(&spec, func(c *redsync.Config) { c.NoFailFast = noFailFast })
		t.Run(spec.Name(), func(t *testing.T) {
			t.Parallel()
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				s := spec
				s.Redlock.TTL = ttl
				s.Redlock.NodeTimeout = slow.NodeTimeout(s.Redlock.NodeTimeout, ttl)
				return openPeer(t, s, onMasters())
			}, drivertest.Options{Workers: 16})
		})
	}
}

// TestRueidislock: rueidislock extends its locks in the background until
// released, so the suite's expiry tests do not apply; these are the
// properties that do.
func TestRueidislock(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // shares TestMain's masters on keys of its own: overlaps the other conformance tests
	spec := backends.Spec{Backend: "rueidislock", Workers: 16, Redlock: redlock.DefaultConfig()}
	spec.Redlock.TTL = time.Second
	spec.Redlock.NodeTimeout = slow.NodeTimeout(spec.Redlock.NodeTimeout, spec.Redlock.TTL) // scaled for load
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	t.Run("MutualExclusion", func(t *testing.T) {
		l := openPeer(t, spec, onMasters())
		defer l.Close()
		var counter int
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 4; {
					ls, _, err := l.Lock(ctx, "rueidislock-mutex")
					if err != nil {
						if ctx.Err() != nil {
							return
						}
						time.Sleep(time.Millisecond)
						continue
					}
					v := counter
					time.Sleep(time.Microsecond)
					counter = v + 1
					_ = ls.Unlock(ctx)
					i++
				}
			}()
		}
		wg.Wait()
		if counter != 64 {
			t.Fatalf("counter = %d, want 64: updates lost to overlapping holders", counter)
		}
	})

	t.Run("BusyThenFree", func(t *testing.T) {
		l := openPeer(t, spec, onMasters())
		defer l.Close()
		a, att, err := drivertest.LockSettled(ctx, l, "rueidislock-busy") // a timeout is not the subject
		if err != nil || att.Won != 1 {
			t.Fatalf("Lock: %v %+v", err, att)
		}
		// Auto-extension keeps it past its 1 s validity.
		time.Sleep(1500 * time.Millisecond)
		// Unless it did not: rueidislock gives each extension its 20 ms
		// TryNextAfter, and on a loaded machine one ran out, the library
		// gave the lock up, and the second Lock below was rightly granted.
		// Extend only looks at that (no command): a lock lost before the
		// second Lock leaves the test without a holder to be busy behind.
		if err := a.Extend(ctx, time.Second); err != nil {
			t.Skipf("inconclusive: the first lock was lost before the second Lock (%v)", err)
		}
		if _, att, err := drivertest.LockSettled(ctx, l, "rueidislock-busy"); !errors.Is(err, drivers.ErrBusy) || att.HeldByOther != 1 {
			t.Fatalf("second Lock: err = %v %+v, want ErrBusy", err, att)
		}
		if err := a.Extend(ctx, time.Second); err != nil {
			t.Fatalf("Extend while held: %v", err)
		}
		if err := a.Unlock(ctx); err != nil {
			t.Fatalf("Unlock: %v", err)
		}
		if err := a.Unlock(ctx); !errors.Is(err, drivers.ErrNotHeld) {
			t.Fatalf("second Unlock: err = %v, want ErrNotHeld", err)
		}
		b, _, err := drivertest.LockSettled(ctx, l, "rueidislock-busy")
		if err != nil {
			t.Fatalf("Lock after Unlock: %v", err)
		}
		_ = b.Unlock(ctx)
	})

	t.Run("CanceledContext", func(t *testing.T) {
		l := openPeer(t, spec, onMasters())
		defer l.Close()
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := l.Lock(cctx, "rueidislock-canceled"); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

// TestRueidislockPausedMasterTimesOut: a master that does not answer
// (SIGSTOP) is a timeout of the attempt, as for every other driver, not an
// error. rueidislock ends such a try at the key's validity (measured: the
// whole TTL, 1 s here, not TryNextAfter's 20 ms: the command already
// written is not abandoned).
func TestRueidislockPausedMasterTimesOut(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // a master of its own: pausing it stops nobody else's test
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	spec := backends.Spec{Backend: "rueidislock", Workers: 1, Redlock: redlock.DefaultConfig()}
	spec.Redlock.TTL = time.Second
	l := openPeer(t, spec, backends.Endpoints{Masters: r.Endpoints()})
	defer l.Close()
	if err := r.Servers[0].Pause(); err != nil {
		t.Fatal(err)
	}
	defer r.Servers[0].Resume()
	_, att, err := l.Lock(ctx, "rueidislock-paused")
	if got := drivers.Classify(ctx, att, err); got != schema.Timeout || !errors.Is(err, drivers.ErrTimeout) || att.TimedOut != 1 || att.Failed != 0 {
		t.Fatalf("Lock on a paused master: %v, err = %v, attempt %+v; want a timeout (ErrTimeout, TimedOut 1, Failed 0)", got, err, att)
	}
}
