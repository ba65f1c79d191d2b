package drivers

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/results/schema"
)

// Classify names the outcome of one Lock call, in the type the recorder
// counts (schema.Outcome: no second list to drift from it; the referee may
// reclassify a failed attempt with what no client can see). ctx is the caller's context:
// an attempt cut short because the run is ending is Canceled, not a failure.
func Classify(ctx context.Context, a Attempt, err error) schema.Outcome {
	switch {
	case err == nil:
		return schema.OK
	case ctx.Err() != nil && (errors.Is(err, ctx.Err()) || errors.Is(err, context.Canceled)):
		return schema.Canceled
	case errors.Is(err, ErrBusy):
		return schema.Busy
	case errors.Is(err, ErrTimeout), errors.Is(err, ErrExpired), errors.Is(err, context.DeadlineExceeded):
		return schema.Timeout
	case errors.Is(err, ErrNoQuorum):
		// Votes split among contenders if every master answered; otherwise
		// failures made the difference.
		if a.Failed+a.TimedOut == 0 {
			return schema.SplitBrain
		}
		if a.TimedOut >= a.Failed {
			return schema.Timeout
		}
		return schema.Error
	}
	return schema.Error
}
