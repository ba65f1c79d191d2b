package drivers

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/results/schema"
)

// Outcome is how one attempt ended, from the client's own view: the same
// type the recorder counts (schema.Outcome), so no cast between two lists
// can drift. The referee may reclassify a failed attempt with what no
// client can see.
type Outcome = schema.Outcome

// The attempt outcomes under the names a lock driver speaks.
const (
	Acquired   = schema.OK         // a quorum granted the lock with validity left
	Busy       = schema.Busy       // a quorum (or the backend) said another owner holds it
	SplitBrain = schema.SplitBrain // no quorum either way: votes split among contenders
	Timeout    = schema.Timeout    // masters too slow for a quorum, or validity used up
	Error      = schema.Error      // masters failed
	Canceled   = schema.Canceled   // the run's context ended mid-attempt; not counted anywhere
)

// Classify names the outcome of one Lock call. ctx is the caller's context:
// an attempt cut short because the run is ending is Canceled, not a failure.
func Classify(ctx context.Context, a Attempt, err error) Outcome {
	switch {
	case err == nil:
		return Acquired
	case ctx.Err() != nil && (errors.Is(err, ctx.Err()) || errors.Is(err, context.Canceled)):
		return Canceled
	case errors.Is(err, ErrBusy):
		return Busy
	case errors.Is(err, ErrTimeout), errors.Is(err, ErrExpired), errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.Is(err, ErrNoQuorum):
		// Votes split among contenders if every master answered; otherwise
		// failures made the difference.
		if a.Failed+a.TimedOut == 0 {
			return SplitBrain
		}
		if a.TimedOut >= a.Failed {
			return Timeout
		}
		return Error
	}
	return Error
}
