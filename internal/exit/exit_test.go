package exit

import (
	"errors"
	"fmt"
	"testing"
)

// TestOneLine: the final error line is one line whatever the driver's
// error held.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                               "plain",
		"dial: refused\n  caused by: EOF\r\n": "dial: refused; caused by: EOF",
		"\n\n":                                "",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("OneLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStatus: each kind of end has its status and its line; a Coder
// anywhere in the chain chooses the status, message the words.
func TestStatus(t *testing.T) {
	upper := func(err error) string { return "<" + err.Error() + ">" }
	for _, tc := range []struct {
		err  error
		code int
		line string
	}{
		{nil, OK, ""},
		{errors.New("dial: refused\nEOF"), Failure, "<dial: refused; EOF>"},
		{Usagef("--workers %d: must be at least 1", 0), Usage, "<--workers 0: must be at least 1>"},
		{fmt.Errorf("cell x: %w", UsageError{errors.New("bad")}), Usage, "<cell x: bad>"},
		{Error{Code: Inconclusive, Msg: "gate inconclusive"}, Inconclusive, "<gate inconclusive>"},
		{fmt.Errorf("wrapped: %w", Error{Code: NoProgress, Msg: "no grant"}), NoProgress, "<wrapped: no grant>"},
		{ErrInterrupted, Interrupted, "interrupted; what was measured has been written"},
		{fmt.Errorf("x: %w", ErrInterruptedEarly), Interrupted, "interrupted before any result was written; nothing was written"},
	} {
		code, line := Status(tc.err, upper)
		if code != tc.code || line != tc.line {
			t.Errorf("Status(%v) = %d, %q; want %d, %q", tc.err, code, line, tc.code, tc.line)
		}
	}
}
