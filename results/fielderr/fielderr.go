// Package fielderr is bad input named by the config field it is in, so a
// library reports it without knowing the flags that set the field; the CLI
// alone renders a field as its flag. It imports nothing of lockbench but
// results/redact. drivers, compose, workloads and results use it; the CLI
// maps fields to flags.
package fielderr

import (
	"errors"
	"fmt"

	"github.com/lockbench/lockbench/results/redact"
)

// Error is bad input named by the config field it is in. Field is the
// field's path as the config serialises it ("workload.workers"), or a Go
// field name where a config has no JSON form (gate options); the CLI
// renders it with the flag that sets the field (Name). Libraries return it
// instead of naming flags they do not know.
type Error struct {
	Field string
	Value string // as given, quoted when a string; "" when the value says nothing
	Err   error  // may itself be an *Error: a field that breaks another
	// Hint, if set, says how to mend it; its %s is HintField, rendered as
	// the field is ("give the CA with %s": "give the CA with --tls-ca-cert").
	Hint      string
	HintField string
}

// Invalid is an Error for value in field: strings are quoted, other
// values printed as they are (durations as 1.5s). A value that carries a
// password shows it masked (redact.String): bad input is often an
// endpoint the parser refused.
func Invalid(field string, value any, format string, a ...any) *Error {
	v := ""
	switch x := value.(type) {
	case nil:
	case string:
		v = fmt.Sprintf("%q", redact.Value(x))
	default:
		v = fmt.Sprint(x)
	}
	return &Error{Field: field, Value: v, Err: fmt.Errorf(format, a...)}
}

func (e *Error) Error() string { return e.Name(nil) }

func (e *Error) Unwrap() error { return e.Err }

// Name renders the error with name(field) in place of every field it names
// (nil: the field paths themselves): "--workers 0: must be at least 1".
func (e *Error) Name(name func(field string) string) string {
	f, msg := e.Field, e.Err.Error()
	if name != nil {
		f = name(f)
	}
	if in, ok := e.Err.(*Error); ok {
		msg = in.Name(name)
	}
	if e.Hint != "" {
		hf := e.HintField
		if name != nil {
			hf = name(hf)
		}
		msg += " (" + fmt.Sprintf(e.Hint, hf) + ")"
	}
	if e.Value == "" {
		return redact.String(f + " " + msg)
	}
	return redact.String(f + " " + e.Value + ": " + msg)
}

// Within puts err's field under prefix ("workers" in "workload" is
// "workload.workers"), and the field it breaks if any (both are in the
// same config); other errors pass unchanged.
func Within(prefix string, err error) error {
	var fe *Error
	if !errors.As(err, &fe) {
		return err
	}
	c := *fe
	c.Field = prefix + "." + c.Field
	if c.HintField != "" {
		c.HintField = prefix + "." + c.HintField
	}
	if in, ok := c.Err.(*Error); ok {
		c.Err = Within(prefix, in)
	}
	return &c
}
