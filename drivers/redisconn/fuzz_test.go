package redisconn

import (
	"net"
	"strings"
	"testing"
)

// FuzzParse: whatever a user types as a master, Parse returns an endpoint
// or an error, never a panic; an endpoint has a host:port address, shows
// no password in its String, and its secret URL parses back to the same
// master.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"127.0.0.1:6379", "redis://alice:s3cret@host:7000/2", "rediss://h:1", "[::1]:6379",
		"redis://:p%2Cw@h:1", "localhost", "redis://h", "unix:///tmp/x", "redis://u:p@[::1]:0/99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		es, err := Parse([]string{entry}, Auth{})
		if err != nil {
			return
		}
		e := es[0]
		if host, port, err := net.SplitHostPort(e.Addr); err != nil || host == "" || port == "" {
			t.Fatalf("%q: address %q is not host:port (%v)", entry, e.Addr, err)
		}
		if len(e.Password) >= 4 && strings.Contains(e.String(), e.Password) {
			t.Fatalf("%q: String %q shows the password", entry, e.String())
		}
		again, err := Parse([]string{e.SecretURL()}, Auth{})
		if err != nil {
			t.Fatalf("%q: its URL %q does not parse: %v", entry, e.SecretURL(), err)
		}
		if a := again[0]; a.Addr != e.Addr || a.Username != e.Username || a.Password != e.Password || a.DB != e.DB || a.Secure() != e.Secure() {
			t.Fatalf("%q: %+v parses back as %+v", entry, e, a)
		}
	})
}
