package drivertest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// answers is a lease whose Unlock, and a locker whose Lock, returns the
// given errors in turn (the last one again once they run out).
type answers struct {
	errs  []error
	calls int
}

func (a *answers) next() error {
	a.calls++
	return a.errs[min(a.calls, len(a.errs))-1]
}

func (a *answers) Unlock(context.Context) error { return a.next() }
func (a *answers) Lock(context.Context, string) (drivers.Lease, drivers.Attempt, error) {
	return nil, drivers.Attempt{Masters: 1}, a.next()
}
func (a *answers) Close() error                                { return nil }
func (a *answers) Extend(context.Context, time.Duration) error { return nil }
func (a *answers) ValidUntil() time.Time                       { return time.Time{} }
func (a *answers) Fence() uint64                               { return 0 }

// TestUnlockSettled: a release that timed out is asked again; any other
// answer (released, not held, a server error) is final.
func TestUnlockSettled(t *testing.T) {
	timedOut := fmt.Errorf("redlock: release: 0/5 masters failed, 4 timed out: %w", context.DeadlineExceeded)
	boom := errors.New("ERR boom")
	for _, c := range []struct {
		name      string
		errs      []error
		want      error
		wantCalls int
	}{
		{"released", []error{nil}, nil, 1},
		{"not held", []error{drivers.ErrNotHeld}, drivers.ErrNotHeld, 1},
		{"timeouts then not held", []error{timedOut, timedOut, drivers.ErrNotHeld}, drivers.ErrNotHeld, 3},
		{"server error is final", []error{boom, drivers.ErrNotHeld}, boom, 1},
		{"always timing out gives up", []error{timedOut}, context.DeadlineExceeded, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &answers{errs: c.errs}
			err := unlockSettled(context.Background(), l)
			if !errors.Is(err, c.want) { // errors.Is(err, nil) holds only for a nil err
				t.Errorf("err = %v, want %v", err, c.want)
			}
			if l.calls != c.wantCalls {
				t.Errorf("%d Unlock calls, want %d", l.calls, c.wantCalls)
			}
		})
	}
}

// TestLockSettled: a Lock that timed out is asked again, at most 5 times;
// any other answer is final.
func TestLockSettled(t *testing.T) {
	late := fmt.Errorf("rueidislock: %w", drivers.ErrTimeout)
	busy := fmt.Errorf("rueidislock: %w: key held", drivers.ErrBusy)
	for _, c := range []struct {
		name      string
		errs      []error
		want      error
		wantCalls int
	}{
		{"busy", []error{busy}, drivers.ErrBusy, 1},
		{"deadlines then busy", []error{late, late, busy}, drivers.ErrBusy, 3},
		{"always late gives up", []error{late}, drivers.ErrTimeout, 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := &answers{errs: c.errs}
			if _, _, err := LockSettled(context.Background(), l, "k"); !errors.Is(err, c.want) {
				t.Errorf("err = %v, want %v", err, c.want)
			}
			if l.calls != c.wantCalls {
				t.Errorf("%d Lock calls, want %d", l.calls, c.wantCalls)
			}
		})
	}
}
