package backends_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
)

// TestDescriptors: every registered backend can be opened, names a kind
// of server, and its ConfigKey is one of Spec's JSON keys.
func TestDescriptors(t *testing.T) {
	keys := map[string]bool{}
	st := reflect.TypeOf(backends.Spec{})
	for i := range st.NumField() {
		keys[strings.Split(st.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for _, name := range backends.Names() {
		b, _ := backends.Lookup(name)
		if b.Open == nil || b.Describe == "" || b.On.String() == "server?" || b.Servers < 0 {
			t.Errorf("%s: incomplete descriptor %+v", name, b)
		}
		if b.ConfigKey != "" && !keys[b.ConfigKey] {
			t.Errorf("%s: ConfigKey %q is not a JSON key of Spec", name, b.ConfigKey)
		}
	}
}

// TestLockServers: zero Servers is all of the lab's servers of the kind,
// a positive one caps them.
func TestLockServers(t *testing.T) {
	for _, c := range []struct{ servers, n, want int }{{0, 5, 5}, {0, 0, 0}, {1, 5, 1}, {1, 0, 0}, {3, 2, 2}} {
		if got := (backends.Backend{Servers: c.servers}).LockServers(c.n); got != c.want {
			t.Errorf("Servers %d over %d: %d, want %d", c.servers, c.n, got, c.want)
		}
	}
}
