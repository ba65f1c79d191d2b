package drivertest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// answers is a lease whose Unlock returns the given errors in turn.
type answers struct {
	errs  []error
	calls int
}

func (a *answers) Unlock(context.Context) error {
	a.calls++
	return a.errs[min(a.calls, len(a.errs))-1]
}
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
