package backends_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/drivertest"
	"github.com/lockbench/lockbench/drivers/redlock"
)

func openPeer(t *testing.T, spec backends.Spec) drivers.Locker {
	t.Helper()
	l, err := backends.Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRedsyncConformance: redsync over the same 5 masters, with and
// without fail-fast.
func TestRedsyncConformance(t *testing.T) {
	t.Parallel() // shares TestMain's masters on keys of its own: overlaps the other conformance tests
	for _, noFailFast := range []bool{false, true} {
		spec := backends.Spec{Backend: "redsync", Workers: 16, Masters: masters(), Redlock: redlock.DefaultConfig(), RedsyncNoFailFast: noFailFast}
		t.Run(spec.Name(), func(t *testing.T) {
			t.Parallel()
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				s := spec
				s.Redlock.TTL = ttl
				s.Redlock.NodeTimeout = drivertest.NodeTimeout(s.Redlock.NodeTimeout, ttl)
				return openPeer(t, s)
			}, drivertest.Options{Workers: 16})
		})
	}
}

// TestRueidislock: rueidislock extends its locks in the background until
// released, so the suite's expiry tests do not apply; these are the
// properties that do.
func TestRueidislock(t *testing.T) {
	t.Parallel() // shares TestMain's masters on keys of its own: overlaps the other conformance tests
	spec := backends.Spec{Backend: "rueidislock", Workers: 16, Masters: masters(), Redlock: redlock.DefaultConfig()}
	spec.Redlock.TTL = time.Second
	spec.Redlock.NodeTimeout = drivertest.NodeTimeout(spec.Redlock.NodeTimeout, spec.Redlock.TTL) // scaled for load
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	t.Run("MutualExclusion", func(t *testing.T) {
		l := openPeer(t, spec)
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
		l := openPeer(t, spec)
		defer l.Close()
		a, att, err := l.Lock(ctx, "rueidislock-busy")
		if err != nil || att.Won != 1 {
			t.Fatalf("Lock: %v %+v", err, att)
		}
		// Auto-extension keeps it past its 1 s validity.
		time.Sleep(1500 * time.Millisecond)
		if _, att, err := l.Lock(ctx, "rueidislock-busy"); !errors.Is(err, drivers.ErrBusy) || att.HeldByOther != 1 {
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
		b, _, err := l.Lock(ctx, "rueidislock-busy")
		if err != nil {
			t.Fatalf("Lock after Unlock: %v", err)
		}
		_ = b.Unlock(ctx)
	})

	t.Run("CanceledContext", func(t *testing.T) {
		l := openPeer(t, spec)
		defer l.Close()
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, _, err := l.Lock(cctx, "rueidislock-canceled"); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}
