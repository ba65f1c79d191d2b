package scenario

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// answers is a lease whose Unlock answers from a script, then nil.
type answers struct {
	drivers.Lease
	script []error
	calls  int
}

func (a *answers) Unlock(context.Context) error {
	a.calls++
	if len(a.script) == 0 {
		return nil
	}
	err := a.script[0]
	a.script = a.script[1:]
	return err
}

// TestUnlockRetry: a release that timed out is tried again; "not held" on
// a later try (the first took effect, its reply lost) is a release; one
// that never answers ends with its context, naming the last error.
func TestUnlockRetry(t *testing.T) {
	lost := errors.New("write tcp: i/o timeout")
	for _, tc := range []struct {
		name   string
		script []error
		ok     bool
		calls  int
	}{
		{"at once", nil, true, 1},
		{"after a timeout", []error{lost}, true, 2},
		{"not held after a lost reply", []error{lost, drivers.ErrNotHeld}, true, 2},
		{"never", slices.Repeat([]error{lost}, 1000), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			l := &answers{script: tc.script}
			err := unlockRetry(ctx, l)
			if (err == nil) != tc.ok {
				t.Fatalf("err %v, want ok %v", err, tc.ok)
			}
			if tc.ok && l.calls != tc.calls {
				t.Errorf("%d calls, want %d", l.calls, tc.calls)
			}
			if !tc.ok && (!errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), lost.Error())) {
				t.Errorf("err %v: want the deadline and the last error", err)
			}
		})
	}
}
