package main

import "testing"

// TestOneLine: the final error line is one line whatever the driver's
// error held.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                               "plain",
		"dial: refused\n  caused by: EOF\r\n": "dial: refused; caused by: EOF",
		"\n\n":                                "",
	} {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
