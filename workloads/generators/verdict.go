package generators

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
)

// Exit statuses a run of several generators ends with, beside the ones a
// single run has (a failed run, no progress): every generator takes the
// one generator 0 gives.
const (
	// ExitFailure: the run failed.
	ExitFailure = exit.Failure
	// ExitThreshold: the merged histograms broke a --threshold; every
	// generator aborted.
	ExitThreshold = 5
	// ExitLost: a generator stopped reporting, or this one was cut off
	// from the run (paused past its lease); every generator aborted.
	ExitLost = 6
	// ExitCoordination: the coordination store stopped answering; this
	// generator stopped measuring and kept its share.
	ExitCoordination = 7
)

// verdictWait bounds how long a generator other than 0 waits, after its
// share is published, for generator 0's verdict while both still hold
// their leases: generator 0 gathers the others' results (collectWait),
// merges and writes them first. A generator 0 lost or a store lost ends
// the wait sooner (within the lease).
const verdictWait = collectWait + 15*time.Second

// ErrInterrupted: a signal ended the run after this generator's share was
// written; the others were told to stop.
var ErrInterrupted = errors.New("generators: interrupted")

// VerdictError is a run's end other than a pass: the exit status every
// generator takes (ExitCode) and why.
type VerdictError struct {
	Code    int
	Message string
}

func (v *VerdictError) Error() string { return v.Message }

// ExitCode is the status the process ends with.
func (v *VerdictError) ExitCode() int { return v.Code }

// ErrNoPlan: generator 0 did not publish the run's plan within the join
// timeout (not started, or lost before it could): a failure of the run,
// not of this generator's input.
var ErrNoPlan = errors.New("no plan from generator 0")

// JoinError is a generator refused at the start: the coordination store
// unreachable, another config than generator 0's, an index taken. It is
// bad input: nothing was measured.
type JoinError struct{ Err error }

func (j *JoinError) Error() string { return j.Err.Error() }
func (j *JoinError) Unwrap() error { return j.Err }

// err is v as the error it ends the run with: nil for a pass.
func (v Ending) err() error {
	if v.Code == 0 {
		return nil
	}
	return &VerdictError{Code: v.Code, Message: v.Message}
}

// verdictOf is err as the verdict every generator exits with.
func verdictOf(err error) Ending {
	if err == nil {
		return Ending{}
	}
	code := ExitFailure
	var ec exit.Coder // the caller's failure checks return them
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	return Ending{Code: code, Message: err.Error()}
}

// abortError is a as the error the run ends with.
func abortError(a *AbortError) error {
	code := ExitFailure
	switch a.Kind {
	case Threshold:
		code = ExitThreshold
	case Lost:
		code = ExitLost
	case Coordination:
		code = ExitCoordination
	}
	return &VerdictError{Code: code, Message: a.Error()}
}

// abortedOr is the run's abort, if it was aborted, else err.
func abortedOr(m *Member, err error) error {
	if a := m.AbortErr(); a != nil {
		return abortError(a)
	}
	return err
}

// verdictErr waits for generator 0's verdict and is it as an error (nil:
// the run passed), or the abort, the interruption or generator 0's loss
// that ended the wait.
func verdictErr(ctx context.Context, m *Member) error {
	v, ok := m.AwaitVerdict(ctx, verdictWait)
	switch {
	case ok:
		return v.err()
	case m.AbortErr() != nil:
		return abortError(m.AbortErr())
	case ctx.Err() != nil:
		return ErrInterrupted
	}
	return &VerdictError{Code: ExitLost, Message: fmt.Sprintf("generators: generator 0 gave no verdict within %v of this generator's result (lost)", verdictWait)}
}

// abortOnFailure tells the others at once why this generator ends, rather
// than leaving them to find it gone.
func abortOnFailure(ctx context.Context, m *Member, err *error) {
	if *err != nil && ctx.Err() == nil && m.AbortErr() == nil && !m.Finished() {
		m.Abort(&AbortError{Kind: Failed, Generator: m.Index(), Reason: fmt.Sprintf("generator %d failed: %v", m.Index(), *err)})
	}
}

// interrupted ends the run for every generator: this one was interrupted.
func interrupted(m *Member) {
	m.Abort(&AbortError{Kind: Failed, Generator: m.Index(), Reason: fmt.Sprintf("generator %d was interrupted", m.Index())})
}
