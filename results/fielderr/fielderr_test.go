package fielderr

import (
	"errors"
	"strings"
	"testing"
)

// TestWithin: a field error's field, and the field it breaks, move under
// the prefix; other errors pass unchanged.
func TestWithin(t *testing.T) {
	plain := errors.New("plain")
	flag := func(f string) string { return "--" + strings.ReplaceAll(f, ".", "-") }
	for _, c := range []struct {
		name string
		err  error
		want string // Name(flag) of the result; plain errors: Error()
	}{
		{"plain", plain, "plain"},
		{"one field", Invalid("workers", 0, "must be at least 1"), "--w-workers 0: must be at least 1"},
		{"nested", &Error{Field: "cert", Value: `"c"`, Err: &Error{Field: "key", Err: errors.New("is needed too")}},
			`--w-cert "c": --w-key is needed too`},
		{"hint", &Error{Field: "addrs", Value: `"a"`, Err: errors.New("unreachable"), Hint: "give the CA with %s", HintField: "ca"},
			`--w-addrs "a": unreachable (give the CA with --w-ca)`},
	} {
		got := Within("w", c.err)
		var fe *Error
		if !errors.As(got, &fe) {
			if got != c.err || got.Error() != c.want {
				t.Errorf("%s: %v, want %q unchanged", c.name, got, c.want)
			}
			continue
		}
		if s := fe.Name(flag); s != c.want {
			t.Errorf("%s: %q, want %q", c.name, s, c.want)
		}
	}
}
