package backends

import (
	"context"
	"maps"
	"slices"

	"github.com/lockbench/lockbench/drivers"
)

// Server is a kind of server a backend's locks live on: what the lab must
// start (or dial) for it. The zero value is the Redis masters.
type Server uint8

const (
	Redis     Server = iota // N independent Redis masters
	Etcd                    // the etcd members
	ZooKeeper               // a ZooKeeper server (or an external ensemble)
	Postgres                // a PostgreSQL server
	Sentinel                // one Redis master, its replica and redis-sentinel
)

var serverNames = [...]string{Redis: "redis", Etcd: "etcd", ZooKeeper: "zookeeper", Postgres: "postgres", Sentinel: "sentinel"}

// ParseServer is the kind of server named name ("redis", "etcd", …).
func ParseServer(name string) (Server, bool) {
	i := slices.Index(serverNames[:], name)
	return Server(max(i, 0)), i >= 0
}

func (k Server) String() string {
	if int(k) < len(serverNames) {
		return serverNames[k]
	}
	return "server?"
}

// Backend describes and opens Lockers of one kind: everything the rest of
// lockbench knows about a backend is here, so callers ask the descriptor
// instead of comparing names. Zero fields mean the default their comment
// names.
type Backend struct {
	Name     string
	Describe string
	// Clients and Muxes are the client libraries and multiplexing
	// strategies it runs over (Spec.Client, Spec.Mux); empty: it has no
	// such choice, and the flag does not apply.
	Clients, Muxes []string
	// On is the kind of server its locks live on; zero: Redis masters.
	On Server
	// Servers is how many of the lab's servers of kind On one lock lives
	// on; zero: all of them (Redlock's N masters, etcd's members).
	Servers int
	// Extends: the library extends a held lock from a goroutine of its
	// own until it is released, so a pause of the holder's own code does
	// not end the lease.
	Extends bool
	// Config, if set, is a pointer to a new value of the backend's own
	// settings, a struct with JSON and flag tags, holding its defaults
	// (DefaultSpec). A Spec holds it under ConfigKey: Settings and
	// Update read and change it by its type, JSON puts it at the
	// Spec's top level under ConfigKey, and the flag tags of its fields
	// bind as the Spec's own do. Nil: the backend has no settings.
	Config func() any
	// ConfigKey is the JSON key of its settings in Spec ("etcd"), under
	// which Check's field errors are named; required with Config.
	ConfigKey string
	// Open opens a Locker configured by s on the servers at.
	Open func(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error)
	// Baselines are the rows `compare --baselines` may add for it, by row
	// name ("etcd-wait"), each putting its mode into a Spec of this
	// backend; none: it is not offered as a baseline.
	Baselines map[string]func(s *Spec)
	// Check, if set, validates the backend's own parameters.
	Check func(s Spec) error
	// Variant, if set, names the backend's mode in the run name.
	Variant func(s Spec) string
}

// Uses reports whether the backend needs servers of kind k.
func (b Backend) Uses(k Server) bool { return b.On == k }

// LockServers is how many servers one lock lives on, given that the lab
// has n servers of kind On.
func (b Backend) LockServers(n int) int {
	if b.Servers > 0 {
		return min(n, b.Servers)
	}
	return n
}

var registry = map[string]Backend{}

// Register adds a backend; called from the init of its package. It panics
// on a name, ConfigKey or config type registered twice, a ConfigKey that
// is one of Spec's own JSON keys, or a Config that is not a pointer to a
// struct: programming errors a test finds.
func Register(b Backend) {
	if _, dup := registry[b.Name]; dup {
		panic("backends: registered twice: " + b.Name)
	}
	if b.Config != nil {
		registerConfig(b)
	}
	registry[b.Name] = b
}

// Lookup finds a backend by name.
func Lookup(name string) (Backend, bool) { b, ok := registry[name]; return b, ok }

// Names lists the backends, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(registry))
}
