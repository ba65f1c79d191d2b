package redsync

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/go-redsync/redsync/v4"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/schema"
)

// TestTallyAndSentinel: redsync's errors become the per-master tally and
// the drivers sentinel that Classify turns into an outcome.
func TestTallyAndSentinel(t *testing.T) {
	ioTimeout := &redsync.RedisError{Node: 1, Err: os.ErrDeadlineExceeded} // a net.Error with Timeout()
	cases := []struct {
		name    string
		err     error
		want    drivers.Attempt
		outcome schema.Outcome
	}{
		{"taken by a quorum", &redsync.ErrTaken{Nodes: []int{0, 2, 4}},
			drivers.Attempt{Masters: 5, HeldByOther: 3}, schema.Busy},
		{"votes split", errors.Join(&redsync.ErrNodeTaken{Node: 0}, &redsync.ErrNodeTaken{Node: 1}),
			drivers.Attempt{Masters: 5, Won: 3, HeldByOther: 2}, schema.SplitBrain},
		{"masters timed out", errors.Join(ioTimeout, &redsync.RedisError{Node: 2, Err: context.DeadlineExceeded}, &redsync.RedisError{Node: 3, Err: context.DeadlineExceeded}),
			drivers.Attempt{Masters: 5, Won: 2, TimedOut: 3}, schema.Timeout},
		{"masters failed", errors.Join(&redsync.RedisError{Node: 0, Err: errors.New("connection refused")}, &redsync.RedisError{Node: 1, Err: errors.New("connection refused")}, &redsync.ErrNodeTaken{Node: 2}),
			drivers.Attempt{Masters: 5, Won: 2, HeldByOther: 1, Failed: 2}, schema.Error},
		{"quorum without validity", redsync.ErrFailed,
			drivers.Attempt{Masters: 5}, schema.Timeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			att := drivers.Attempt{Masters: 5}
			tally(&att, tc.err)
			if att != tc.want {
				t.Fatalf("tally = %+v, want %+v", att, tc.want)
			}
			if got := drivers.Classify(context.Background(), att, sentinel(tc.err)); got != tc.outcome {
				t.Fatalf("outcome = %v, want %v", got, tc.outcome)
			}
		})
	}
}
