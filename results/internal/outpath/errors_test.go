package outpath

import (
	"errors"
	"io/fs"
	"testing"
)

// TestErrorNamed: Named renders the destination, and a conflict's other
// one, by the caller's names; the reason stays in the chain.
func TestErrorNamed(t *testing.T) {
	flag := func(dest string) string { return "--" + dest }
	for _, c := range []struct {
		name string
		err  *Error
		want string
	}{
		{"reason", &Error{Dest: "json", Path: "a.json", Err: fs.ErrPermission},
			`--json "a.json": permission denied`},
		{"input", &Error{Dest: "json", Path: "k.pem", Err: &ConflictError{Dest: "tls-key", Path: "k.pem", Input: true}},
			`--json "k.pem": is read by --tls-key "k.pem": writing it would destroy an input`},
		{"output", &Error{Dest: "cpuprofile", Path: "x", Err: &ConflictError{Dest: "json", Path: "x"}},
			`--cpuprofile "x": is also written by --json "x": one of them would be lost`},
		{"stdout", &Error{Dest: "json", Path: "/dev/stdout", Err: &ConflictError{Stdout: true}},
			`--json "/dev/stdout": is this command's stdout or stderr, which it writes already (--json - puts the JSON on stdout)`},
	} {
		got := c.err.Named(flag)
		if got.Error() != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
		if !errors.Is(got, fs.ErrPermission) && c.name == "reason" {
			t.Errorf("%s: %v lost its reason", c.name, got)
		}
		if same := c.err.Named(func(d string) string { return d }).Error(); same != c.err.Error() {
			t.Errorf("%s: named as they are %q, want %q", c.name, same, c.err.Error())
		}
	}
}
