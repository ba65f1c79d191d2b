package backends

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/redsync"
)

// RedsyncConfig is the redsync backend's setting.
type RedsyncConfig struct {
	// RedsyncNoFailFast runs redsync without WithFailFast(true).
	RedsyncNoFailFast bool `json:"redsync_no_fail_fast,omitempty" flag:"redsync-no-fail-fast" help:"redsync: WithFailFast(false), wait for every master's answer (fail-fast can leave orphan keys until TTL)"`
}

func init() {
	Register(Backend{
		Name:      "redsync",
		Describe:  "go-redsync/redsync v4 (Redlock library) over go-redis v9 on the same masters; WithTries(1), WithFailFast(true)",
		On:        Redis,
		Open:      openRedsync,
		Baselines: map[string]func(*Spec){"redsync": func(*Spec) {}},
		Variant: func(s Spec) string {
			if s.RedsyncNoFailFast {
				return "no-fail-fast"
			}
			return "fail-fast"
		},
	})
}

func openRedsync(_ context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	// The same go-redis client settings as lockbench's own goredis adapter.
	nodes, err := goredis.Dial(at.Masters, goredis.Options{PoolSize: s.Workers})
	if err != nil {
		return nil, err
	}
	clients := make([]*redis.Client, len(nodes))
	for i, n := range nodes {
		clients[i] = n.Client()
	}
	r := s.Redlock
	l, err := redsync.New(clients, redsync.Config{TTL: r.TTL, NodeTimeout: r.NodeTimeout, DriftFactor: r.DriftFactor, FailFast: !s.RedsyncNoFailFast},
		func() error { return goredis.CloseAll(nodes) })
	if err != nil {
		_ = goredis.CloseAll(nodes)
		return nil, err
	}
	return l, nil
}
