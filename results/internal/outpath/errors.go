package outpath

import (
	"errors"
	"fmt"
)

// Error is an output (or input) that cannot be used or written, naming its
// destination: "json", "out", "cpuprofile", or a name the caller gave.
type Error struct {
	Dest, Path string
	Err        error
}

func (e *Error) Error() string { return fmt.Sprintf("%s %q: %v", e.Dest, e.Path, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Named is e with every destination it names (its own, and the other one
// of a conflict) rendered by name, as a CLI names its flags ("--json").
// e's reason stays in its chain.
func (e *Error) Named(name func(dest string) string) error {
	var c *ConflictError
	if errors.As(e.Err, &c) && !c.Stdout {
		return fmt.Errorf("%s %q: %s", name(e.Dest), e.Path, c.reason(name))
	}
	return fmt.Errorf("%s %q: %w", name(e.Dest), e.Path, e.Err)
}

// ConflictError is the reason of an Error whose path another destination
// of the same call also names: an input it would overwrite, or an output
// written twice.
type ConflictError struct {
	Dest, Path string // the other destination
	Input      bool   // the other is an input of the call
	Stdout     bool   // the other is the process's stdout or stderr
}

func (c *ConflictError) Error() string { return c.reason(func(dest string) string { return dest }) }

// reason is c's message with the other destination rendered by name.
func (c *ConflictError) reason(name func(dest string) string) string {
	switch {
	case c.Stdout:
		return "is this command's stdout or stderr, which it writes already (--json - puts the JSON on stdout)"
	case c.Input:
		return fmt.Sprintf("is read by %s %q: writing it would destroy an input", name(c.Dest), c.Path)
	}
	return fmt.Sprintf("is also written by %s %q: one of them would be lost", name(c.Dest), c.Path)
}

// ForeignError is a file in an output directory that lockbench did not
// write there (its manifest does not list it, or lists other content): it
// is never overwritten or deleted.
type ForeignError struct{ Name string }

func (f *ForeignError) Error() string {
	return fmt.Sprintf("holds %s, which lockbench did not write there (no manifest entry matches it); give a new directory or move it away", f.Name)
}

// HeldError is an output directory another live lockbench process holds.
type HeldError struct{ PID string }

func (h *HeldError) Error() string {
	if h.PID == "" {
		return "is being written by another running lockbench"
	}
	return fmt.Sprintf("is being written by another running lockbench (pid %s)", h.PID)
}
