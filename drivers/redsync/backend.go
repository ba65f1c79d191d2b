package redsync

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/goredis"
)

func init() {
	backends.Register(backends.Backend{
		Name:      "redsync",
		Describe:  "go-redsync/redsync v4 (Redlock library) over go-redis v9 on the same masters; WithTries(1), WithFailFast(true)",
		On:        backends.Redis,
		Config:    func() any { return &Config{} },
		ConfigKey: "redsync",
		Open:      openRedsync,
		Baselines: map[string]func(*backends.Spec){"redsync": func(*backends.Spec) {}},
		Variant: func(s backends.Spec) string {
			if backends.Settings[Config](s).NoFailFast {
				return "no-fail-fast"
			}
			return "fail-fast"
		},
	})
}

func openRedsync(_ context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	// The same go-redis client settings as lockbench's own goredis adapter.
	nodes, err := goredis.Dial(at.Masters, goredis.Options{PoolSize: s.Workers})
	if err != nil {
		return nil, err
	}
	clients := make([]*redis.Client, len(nodes))
	for i, n := range nodes {
		clients[i] = n.Client()
	}
	c := backends.Settings[Config](s)
	c.TTL, c.NodeTimeout, c.DriftFactor = s.Redlock.TTL, s.Redlock.NodeTimeout, s.Redlock.DriftFactor
	l, err := New(clients, c,
		func() error { return goredis.CloseAll(nodes) })
	if err != nil {
		_ = goredis.CloseAll(nodes)
		return nil, err
	}
	return l, nil
}
