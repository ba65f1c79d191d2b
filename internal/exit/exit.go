// Package exit is lockbench's exit statuses and the errors that choose
// them: bad input, a status chosen by a judge (a gate's verdict, a run that
// measured no progress), an interruption. Any layer may return them; the
// CLI turns the error a command ends with into its status and the one line
// that says why (Status).
package exit

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Exit statuses.
const (
	OK      = 0
	Failure = 1 // the run failed, or a gate found a regression
	Usage   = 2 // bad input: nothing was started or written
	// Inconclusive: a gate could not decide (too few or too noisy
	// samples); neither a pass nor a regression.
	Inconclusive = 3
	// NoProgress: a run measured no progress: no grant, no completed
	// cycle, or a stall (--allow-failures accepts it).
	NoProgress  = 4
	Interrupted = 130
)

// Coder is an error that chooses lockbench's exit status: bad input, a
// gate's verdict, a scenario measured otherwise than expected.
type Coder interface {
	error
	ExitCode() int
}

// UsageError is bad input: one line naming the flag and value, exit 2.
type UsageError struct{ Err error }

func (u UsageError) Error() string { return u.Err.Error() }
func (u UsageError) Unwrap() error { return u.Err }

// ExitCode is Usage.
func (UsageError) ExitCode() int { return Usage }

// Usagef is bad input said with fmt.Errorf.
func Usagef(format string, a ...any) error { return UsageError{fmt.Errorf(format, a...)} }

// Error ends lockbench with a chosen status and message.
type Error struct {
	Code int
	Msg  string
}

func (e Error) Error() string { return e.Msg }

// ExitCode is e.Code.
func (e Error) ExitCode() int { return e.Code }

// ErrInterrupted: the run was stopped by a signal after writing what it had.
var ErrInterrupted = errors.New("interrupted")

// ErrInterruptedEarly: a signal came before anything was measured (servers
// starting, a driver dialing) or before a command that writes all at the end
// had written; nothing was written.
var ErrInterruptedEarly = errors.New("interrupted before anything was written")

// Status is the exit status a command that ended with err ends lockbench
// with, and the line that says why ("" for none): an interruption's own
// words, else message(err) on one line (OneLine). The status is chosen by
// the first Coder in err's chain; any other error is a Failure.
func Status(err error, message func(error) string) (code int, line string) {
	switch {
	case err == nil:
		return OK, ""
	case errors.Is(err, ErrInterruptedEarly):
		// Not "before anything was measured": a scenario or a compare that
		// writes at its end may have measured for a while.
		return Interrupted, "interrupted before any result was written; nothing was written"
	case errors.Is(err, ErrInterrupted):
		return Interrupted, "interrupted; what was measured has been written"
	}
	code = Failure
	var ec Coder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	return code, OneLine(message(err))
}

// OneLine is an error message on one line: a driver's multi-line error
// (a server's banner, a wrapped list) joined with "; ".
func OneLine(msg string) string {
	lines := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(slices.DeleteFunc(lines, func(s string) bool { return s == "" }), "; ")
}
