package drivers

import (
	"context"
	"errors"
)

// Outcome is how one attempt ended, from the client's own view. The referee
// (results) may reclassify a failed attempt with what no client can see.
type Outcome uint8

const (
	Acquired   Outcome = iota // a quorum granted the lock with validity left
	Busy                      // a quorum (or the backend) said another owner holds it
	SplitBrain                // no quorum either way: votes split among contenders
	Timeout                   // masters too slow for a quorum, or validity used up
	Error                     // masters failed
	// Canceled: the run's context ended mid-attempt; not counted anywhere.
	Canceled
)

// NumOutcomes is the number of counted outcomes (Canceled is not counted).
const NumOutcomes = int(Canceled)

var outcomeNames = [...]string{"acquired", "busy", "split_brain", "timeout", "error", "canceled"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

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
