// Package drivertest is the conformance suite every lock backend passes
// against real servers: mutual exclusion, release safety, extend semantics,
// one-attempt Lock and context cancellation; RunNode is the suite of a
// Redis client adapter (one master as the Redlock core sees it). Only the
// tests of drivers' packages import it; it imports drivers, multiplex and
// the test kits of internal/testenv, nothing above drivers (the masters
// come in as the Masters interface).
package drivertest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
)

// Opener opens a Locker whose locks live for ttl. The suite closes it.
type Opener func(t *testing.T, ttl time.Duration) drivers.Locker

// Options adapt the suite to a backend's granularity.
type Options struct {
	// TTL for the tests that wait for expiry; backends that round TTLs up
	// (etcd: whole seconds) pass their smallest. Default 300 ms, times
	// internal/testenv/slow's factor on a loaded machine.
	TTL time.Duration
	// Workers contending in the mutual-exclusion test. Default 64.
	Workers int
	// Increments each worker makes. Default 2.
	Rounds int
	// NoExpiry: the backend's locks do not lapse while their client lives
	// (ZooKeeper sessions, PostgreSQL advisory locks). The two expiry tests
	// are replaced by HeldUntilUnlock (noexpiry.go).
	NoExpiry bool
}

func (o *Options) defaults() {
	if o.TTL == 0 {
		// Scaled for load with the openers' node timeouts (NodeTimeout):
		// a ttl must stay above them.
		o.TTL = slow.D(300 * time.Millisecond)
	}
	if o.Workers == 0 {
		o.Workers = 64
	}
	if o.Rounds == 0 {
		o.Rounds = 2
	}
}

var seq atomic.Int64

// key makes a key unique to this test run.
func key(t *testing.T) string {
	return fmt.Sprintf("drivertest:%s:%d:%d", t.Name(), time.Now().UnixNano(), seq.Add(1))
}

// Run runs every conformance test as a subtest of t: MutualExclusion, which
// keeps the servers busy, first; the others, which mostly wait, as parallel
// subtests that run after the calling test function returns.
func Run(t *testing.T, open Opener, opt Options) {
	opt.defaults()
	t.Run("MutualExclusion", func(t *testing.T) { mutualExclusion(t, open, opt) })
	t.Run("OneAttemptBusy", parallel(func(t *testing.T) { oneAttemptBusy(t, open) }))
	if opt.NoExpiry {
		t.Run("HeldUntilUnlock", parallel(func(t *testing.T) { heldUntilUnlock(t, open, opt) }))
	} else {
		t.Run("ReleaseKeepsOthersLock", parallel(func(t *testing.T) { releaseKeepsOthersLock(t, open, opt) }))
		t.Run("ExtendAfterExpiryFails", parallel(func(t *testing.T) { extendAfterExpiry(t, open, opt) }))
	}
	t.Run("ExtendWhileHeld", parallel(func(t *testing.T) { extendWhileHeld(t, open) }))
	t.Run("CanceledContext", parallel(func(t *testing.T) { canceledContext(t, open) }))
}

// parallel is f as a parallel test: each of the suite's tests opens its own
// Locker on a key of its own, and the expiry tests mostly sleep through
// TTLs, so they overlap. They run once the caller's test function has
// returned: what they use is released by t.Cleanup, not by a defer there.
// MutualExclusion is not one: its workers would slow the one-attempt and
// extend calls of the others past their per-call timeouts.
func parallel(f func(t *testing.T)) func(t *testing.T) {
	return func(t *testing.T) {
		t.Parallel()
		f(t)
	}
}

func openClosed(t *testing.T, open Opener, ttl time.Duration) drivers.Locker {
	l := open(t, ttl)
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// retryDelay is the Redlock post's random retry delay bound; a contender
// that keeps failing doubles it up to maxRetryDelay.
const retryDelay, maxRetryDelay = 50 * time.Millisecond, 2 * time.Second

// mutualExclusion: workers increment a plain counter non-atomically inside
// the critical section (read, yield, write). A lost update means two holders
// at once.
func mutualExclusion(t *testing.T, open Opener, opt Options) {
	l := openClosed(t, open, 10*time.Second)
	k := key(t)
	const budget = 2 * time.Minute
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	cpu := slow.WatchCPU()
	var counter int       // deliberately unsynchronised: the lock must protect it
	var done atomic.Int64 // increments made, counted under no lock
	var wg sync.WaitGroup
	errs := make(chan error, opt.Workers)
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			backoff := retryDelay
			for i := 0; i < opt.Rounds; {
				lease, _, err := l.Lock(ctx, k)
				if err != nil {
					if ctx.Err() != nil {
						return // the budget ran out: judged below
					}
					// Redlock's random retry delay, doubled on each failure:
					// on a loaded machine an attempt outlasts a fixed 50 ms
					// window, and 64 workers then split every vote.
					time.Sleep(rand.N(backoff))
					backoff = min(2*backoff, maxRetryDelay)
					continue
				}
				backoff = retryDelay
				v := counter
				runtime.Gosched()
				counter = v + 1
				if err := lease.Unlock(ctx); errors.Is(err, drivers.ErrNotHeld) {
					errs <- fmt.Errorf("unlock: %w", err) // a 10 s lease lost within milliseconds
					return
				} else if err != nil {
					// A release that timed out on a loaded machine is not a
					// safety failure: the lock expires by itself.
					t.Logf("unlock: %v", err)
				}
				done.Add(1)
				i++
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Safety first, whether or not every worker finished: each increment
	// made under the lock is in the counter.
	if n := int(done.Load()); counter != n {
		t.Fatalf("counter = %d, want %d: %d updates lost to overlapping holders", counter, n, n-counter)
	}
	if want := opt.Workers * opt.Rounds; counter != want {
		// Liveness: a fixed budget says nothing on a machine too busy
		// to run the workers and the servers.
		share := cpu.Share()
		if share.Slowdown() >= slow.Starved {
			t.Skipf("inconclusive: %d of %d increments within %v, none lost; %v", counter, want, budget, share)
		}
		t.Fatalf("%d of %d increments within %v (%v)", counter, want, budget, share)
	}
}

func oneAttemptBusy(t *testing.T, open Opener) {
	l := openClosed(t, open, 10*time.Second)
	ctx := context.Background()
	k := key(t)
	a, _, err := LockSettled(ctx, l, k)
	if err != nil {
		t.Fatalf("first Lock: %v", err)
	}
	defer a.Unlock(ctx)
	if !a.ValidUntil().After(time.Now()) {
		t.Fatalf("ValidUntil %v is not in the future", a.ValidUntil())
	}
	_, att, err := l.Lock(ctx, k)
	if !errors.Is(err, drivers.ErrBusy) {
		t.Fatalf("second Lock on a held key: err = %v, want ErrBusy", err)
	}
	if att.Won != 0 && att.Won >= att.HeldByOther {
		t.Fatalf("busy attempt tally %+v: want held_by_other to dominate", att)
	}
}

func releaseKeepsOthersLock(t *testing.T, open Opener, opt Options) {
	l := openClosed(t, open, opt.TTL)
	ctx := context.Background()
	k := key(t)
	a, _, err := LockSettled(ctx, l, k)
	if err != nil {
		t.Fatalf("Lock A: %v", err)
	}
	var b drivers.Lease
	deadline := time.Now().Add(opt.TTL*4 + 3*time.Second)
	for {
		if b, _, err = l.Lock(ctx, k); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("B never acquired after A's lock expired: %v", err)
		}
		time.Sleep(opt.TTL / 10)
	}
	defer b.Unlock(ctx)
	if err := unlockSettled(ctx, a); !errors.Is(err, drivers.ErrNotHeld) {
		t.Fatalf("A.Unlock after expiry: err = %v, want ErrNotHeld", err)
	}
	// A third Lock while B holds must be refused.
	for {
		c, _, err := l.Lock(ctx, k)
		if errors.Is(err, drivers.ErrBusy) {
			return
		}
		if left := time.Until(b.ValidUntil()); left <= 0 {
			// B's own lease ran out before the answer was seen (a loaded
			// machine: the releases above were asked again, or the third
			// Lock waited behind B until B's lease, and then its own,
			// lapsed): a grant is legitimate, any other answer too, and
			// neither says anything about A's Unlock.
			if err == nil {
				_ = c.Unlock(ctx)
			}
			t.Skipf("inconclusive: B's lease ran out (%v ago) before a third Lock answered (err = %v)", -left, err)
		}
		if err == nil {
			_ = c.Unlock(ctx)
			t.Fatalf("A's late Unlock deleted B's lock: a third Lock was granted while B's lease had %v left", time.Until(b.ValidUntil()))
		}
		// Any other error (a timeout, an etcd session that lapsed on a
		// loaded machine) is no answer either way: ask again while B's
		// lock is surely valid.
		if left := time.Until(b.ValidUntil()); left < opt.TTL/4 {
			t.Skipf("inconclusive: no answer to a third Lock while B's lease was surely valid (%v left): %v", left, err)
		}
	}
}

// unlockSettled releases lease, asking again while the answer is a timeout:
// masters too slow to answer on a loaded machine say nothing about whether
// the lease is still held, and a compare-and-delete is safe to repeat.
func unlockSettled(ctx context.Context, lease drivers.Lease) error {
	var err error
	for range 5 {
		err = lease.Unlock(ctx)
		if drivers.Classify(ctx, drivers.Attempt{}, err) != schema.Timeout {
			return err
		}
	}
	return err
}

// LockSettled makes one Lock, asked again (at most 5 times) while it times
// out: like a release, a try that a loaded machine let time out says nothing
// about who holds the key. Any other answer is final. The suite takes its
// first lock of a fresh key with it wherever a timeout is not the subject.
func LockSettled(ctx context.Context, l drivers.Locker, key string) (drivers.Lease, drivers.Attempt, error) {
	for i := 0; ; i++ {
		ls, att, err := l.Lock(ctx, key)
		if i == 4 || drivers.Classify(ctx, att, err) != schema.Timeout {
			return ls, att, err
		}
	}
}

func extendAfterExpiry(t *testing.T, open Opener, opt Options) {
	l := openClosed(t, open, opt.TTL)
	ctx := context.Background()
	a, _, err := LockSettled(ctx, l, key(t))
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	time.Sleep(time.Until(a.ValidUntil()) + opt.TTL + 50*time.Millisecond)
	if err := a.Extend(ctx, opt.TTL); err == nil {
		t.Fatal("Extend after expiry succeeded")
	}
}

func extendWhileHeld(t *testing.T, open Opener) {
	l := openClosed(t, open, 10*time.Second)
	ctx := context.Background()
	a, _, err := LockSettled(ctx, l, key(t))
	if err != nil {
		t.Fatalf("Lock: %v", err)
	}
	defer a.Unlock(ctx)
	before := a.ValidUntil()
	time.Sleep(5 * time.Millisecond)
	if err := a.Extend(ctx, 20*time.Second); err != nil {
		t.Fatalf("Extend while held: %v", err)
	}
	if !a.ValidUntil().After(before) {
		t.Fatalf("Extend did not move ValidUntil forward: %v → %v", before, a.ValidUntil())
	}
}

func canceledContext(t *testing.T, open Opener) {
	l := openClosed(t, open, 10*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lease, _, err := l.Lock(ctx, key(t))
	if err == nil {
		_ = lease.Unlock(context.Background())
		t.Fatal("Lock with a canceled context succeeded")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Lock with a canceled context: err = %v, want context.Canceled", err)
	}
	if got := drivers.Classify(ctx, drivers.Attempt{}, err); got != schema.Canceled {
		t.Fatalf("Classify = %v, want canceled (a shutdown is not a failure)", got)
	}
}
