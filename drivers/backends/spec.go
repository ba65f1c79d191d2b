package backends

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/results/fielderr"
)

// Spec selects and configures a Locker. It serialises into results, each
// backend's settings under its ConfigKey beside the fields below.
type Spec struct {
	Backend   string            `json:"backend" flag:"backend" help:"lock backend (FlagHelp lists the registered ones)"`
	Client    string            `json:"client,omitempty" flag:"client" help:"Redis client library: goredis|rueidis" applies:"clients"`
	Mux       string            `json:"mux,omitempty" flag:"mux" help:"how a command reaches the N masters: sequential, fanout, pipeline or auto; the default is the fastest in the measured tables" applies:"muxes"`
	Redlock   redlock.Config    `json:"redlock"`
	Multiplex multiplex.Options `json:"multiplex" applies:"mux=pipeline"`
	// Tuning is the client libraries' settings (tuning.go). Fields
	// that hold for some runs only say where in an applies tag, which
	// workloads/lab's applicability check reads: a server kind the backend
	// locks on ("redis"), "local" or "external" Redis masters, "clients" or
	// "muxes" (the backend has that choice), "client=NAME", "mux=NAME".
	Tuning Tuning `json:"client_tuning"`
	// Workers sizes connection pools so no worker waits for a connection.
	Workers int `json:"-"`
	// settings are the backends' own, by ConfigKey (settings.go): in JSON
	// and flags they are Spec's groups, "etcd", "zookeeper", ….
	settings map[string]any
}

// DefaultSpec is Redlock over go-redis with the mux left unset, the
// Redlock, strategy and client defaults, and every registered backend's
// own settings with their defaults (Backend.Config): the one place a
// Spec's zero values become defaults. A zero field of a Spec not built
// from it, and the settings of a backend it does not hold, keep their zero
// meaning as each config type documents it.
func DefaultSpec() Spec {
	s := Spec{Backend: "redlock", Client: "goredis", Redlock: redlock.DefaultConfig(),
		Multiplex: multiplex.Options{Batch: multiplex.DefaultBatch}, Tuning: DefaultTuning(),
		settings: map[string]any{}}
	for _, b := range registry {
		if b.Config != nil {
			s.settings[b.ConfigKey] = b.Config()
		}
	}
	return s
}

// FlagHelp lists the registered backends in --backend's help, so a new
// one is listed by registering it.
func (s *Spec) FlagHelp(field string) string {
	if field == "Backend" {
		return "lock backend: " + strings.Join(Names(), ", ")
	}
	return ""
}

// Validate checks names and parameters, naming the field at fault.
func (s Spec) Validate() error {
	b, ok := registry[s.Backend]
	if !ok {
		return fielderr.Invalid("backend", s.Backend, "unknown (have %s)", strings.Join(Names(), ", "))
	}
	if len(b.Clients) > 0 && !slices.Contains(b.Clients, s.Client) {
		return fielderr.Invalid("client", s.Client, "unknown for backend %s (have %s)", s.Backend, strings.Join(b.Clients, ", "))
	}
	if len(b.Muxes) > 0 && !slices.Contains(b.Muxes, s.Mux) {
		return fielderr.Invalid("mux", s.Mux, "unknown for backend %s (have %s)", s.Backend, strings.Join(b.Muxes, ", "))
	}
	if s.Multiplex.Batch < 0 || s.Multiplex.Batch > maxBatch {
		return fielderr.Invalid("multiplex.batch", s.Multiplex.Batch, "must be 0 to %d", maxBatch)
	}
	if s.Multiplex.MaxInFlight < 0 || s.Multiplex.MaxInFlight > maxAutoConcurrency {
		return fielderr.Invalid("multiplex.max_in_flight", s.Multiplex.MaxInFlight, "must be 0 to %d", maxAutoConcurrency)
	}
	if s.Multiplex.FlushDelay < 0 {
		return fielderr.Invalid("multiplex.flush_delay", s.Multiplex.FlushDelay, "must not be negative")
	}
	if err := s.Tuning.Validate(); err != nil {
		return fielderr.Within("client_tuning", err)
	}
	if b.Check != nil {
		return checkWithin(b, b.Check(s))
	}
	return nil
}

// Open opens the Locker s selects on the servers at.
func Open(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return registry[s.Backend].Open(ctx, s, at)
}

// Name is the run's name: backend/client/mux (the parts that apply).
func (s Spec) Name() string {
	b := registry[s.Backend]
	parts := []string{s.Backend}
	if len(b.Clients) > 0 {
		parts = append(parts, s.Client)
	}
	if len(b.Muxes) > 0 {
		parts = append(parts, s.Mux)
	}
	if b.Variant != nil {
		if v := b.Variant(s); v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, "/")
}

// checkWithin puts a backend check's field error under the backend's own
// config (ConfigKey: "etcd.mode"); the TTL the backends take from Redlock's is
// "redlock.ttl".
func checkWithin(b Backend, err error) error {
	var fe *fielderr.Error
	switch {
	case !errors.As(err, &fe):
		return err
	case fe.Field == "ttl":
		return fielderr.Within("redlock", err)
	case b.ConfigKey != "":
		return fielderr.Within(b.ConfigKey, err)
	}
	return err
}
