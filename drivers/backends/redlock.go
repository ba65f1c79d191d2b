package backends

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/results/fielderr"
)

// redisClient dials the masters with one client library in the mode a
// strategy needs, returning the nodes and a closer for their clients.
type redisClient func(ctx context.Context, s Spec, masters []redisconn.Endpoint) ([]multiplex.Node, func() error, error)

var redisClients = map[string]redisClient{}

// registerRedisClient adds a client library for the redlock backend.
func registerRedisClient(name string, c redisClient) { redisClients[name] = c }

func init() {
	Register(Backend{
		Name:     "redlock",
		Describe: "Redlock over N independent masters, lockbench's own implementation (drivers/redlock)",
		Clients:  []string{"goredis", "rueidis"},
		Muxes:    []string{"sequential", "fanout", "pipeline", "auto"},
		On:       Redis,
		Open:     openRedlock,
		Variant: func(s Spec) string {
			if s.Tuning.LibraryDefaults {
				return "defaults" // the libraries' own settings, beside lockbench's
			}
			return ""
		},
	})
}

func openRedlock(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	dial, ok := redisClients[s.Client]
	if !ok {
		return nil, fielderr.Invalid("client", s.Client, "not available (have %v)", clientNames())
	}
	nodes, closeNodes, err := dial(ctx, s, at.Masters)
	if err != nil {
		return nil, err
	}
	if s.Mux == "sequential" || s.Mux == "fanout" { // a connection per command in flight
		warm(ctx, nodes, s.Workers)
	}
	mux, err := multiplex.New(s.Mux, nodes, s.Multiplex)
	if err != nil {
		_ = closeNodes()
		return nil, &fielderr.Error{Field: "mux", Value: fmt.Sprintf("%q", s.Mux), Err: err}
	}
	l, err := redlock.New(mux, s.Redlock, closeNodes)
	if err != nil {
		_ = mux.Close()
		_ = closeNodes()
		return nil, err
	}
	return l, nil
}

func clientNames() []string {
	return slices.Sorted(maps.Keys(redisClients))
}
