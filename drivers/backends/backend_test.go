package backends_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
	_ "github.com/lockbench/lockbench/drivers/backends/all" // every backend lockbench ships, by name
)

// TestDescriptors: every registered backend can be opened and names a
// kind of server; one with settings has a ConfigKey and a Config giving a
// pointer to a struct.
func TestDescriptors(t *testing.T) {
	for _, name := range backends.Names() {
		b, _ := backends.Lookup(name)
		if b.Open == nil || b.Describe == "" || b.On.String() == "server?" || b.Servers < 0 {
			t.Errorf("%s: incomplete descriptor %+v", name, b)
		}
		if (b.Config != nil) != (b.ConfigKey != "") {
			t.Errorf("%s: Config and ConfigKey go together (ConfigKey %q)", name, b.ConfigKey)
		}
		if b.Config != nil {
			if typ := reflect.TypeOf(b.Config()); typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
				t.Errorf("%s: Config gives %v, want a pointer to a struct", name, typ)
			}
		}
	}
}

// specFields are Spec's fields: what every backend shares. A backend's
// own settings are no field of Spec but its Config, held under its
// ConfigKey, so adding a backend touches its own package alone.
var specFields = []string{"Backend", "Client", "Mux", "Redlock", "Multiplex", "Tuning", "Workers", "settings"}

// TestSpecHoldsOnlyCommonFields: a field added to Spec for one backend
// fails here.
func TestSpecHoldsOnlyCommonFields(t *testing.T) {
	var got []string
	st := reflect.TypeOf(backends.Spec{})
	for i := range st.NumField() {
		got = append(got, st.Field(i).Name)
	}
	if !slices.Equal(got, specFields) {
		t.Errorf("Spec's fields are %v, want %v: a backend's own settings belong in its package, "+
			"registered as Backend.Config under its Backend.ConfigKey, not in a field of Spec", got, specFields)
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
