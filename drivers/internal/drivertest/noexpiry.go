package drivertest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// heldUntilUnlock is what a lock without expiry must do instead: it stays
// held past the TTL asked for (others are refused), is released by Unlock
// and only once, and cannot be extended after it.
func heldUntilUnlock(t *testing.T, open Opener, opt Options) {
	l := openClosed(t, open, opt.TTL)
	ctx := context.Background()
	k := key(t)
	a, _, err := l.Lock(ctx, k)
	if err != nil {
		t.Fatalf("Lock A: %v", err)
	}
	time.Sleep(opt.TTL + 50*time.Millisecond)
	if _, _, err := l.Lock(ctx, k); !errors.Is(err, drivers.ErrBusy) {
		t.Fatalf("Lock B past the TTL while A holds: err = %v, want ErrBusy", err)
	}
	if err := a.Unlock(ctx); err != nil {
		t.Fatalf("A.Unlock: %v", err)
	}
	if err := a.Unlock(ctx); !errors.Is(err, drivers.ErrNotHeld) {
		t.Fatalf("second A.Unlock: err = %v, want ErrNotHeld", err)
	}
	if err := a.Extend(ctx, opt.TTL); err == nil {
		t.Fatal("A.Extend after Unlock succeeded")
	}
	b, _, err := l.Lock(ctx, k)
	if err != nil {
		t.Fatalf("Lock B after A's Unlock: %v", err)
	}
	if f := b.Fence(); f != 0 && f <= a.Fence() {
		t.Fatalf("fence went %d → %d: want it to grow with every grant", a.Fence(), f)
	}
	_ = b.Unlock(ctx)
}
