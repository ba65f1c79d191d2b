package backends

import (
	"context"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/redsync"
)

func init() {
	Register(Backend{
		Name:      "redsync",
		Describe:  "go-redsync/redsync v4 (Redlock library) over go-redis v9 on the same masters; WithTries(1), WithFailFast(true)",
		On:        Redis,
		Config:    func() any { return &redsync.Config{} },
		ConfigKey: "redsync",
		Open:      openRedsync,
		Baselines: map[string]func(*Spec){"redsync": func(*Spec) {}},
		Variant: func(s Spec) string {
			if Settings[redsync.Config](s).NoFailFast {
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
	c := Settings[redsync.Config](s)
	c.TTL, c.NodeTimeout, c.DriftFactor = s.Redlock.TTL, s.Redlock.NodeTimeout, s.Redlock.DriftFactor
	l, err := redsync.New(clients, c,
		func() error { return goredis.CloseAll(nodes) })
	if err != nil {
		_ = goredis.CloseAll(nodes)
		return nil, err
	}
	return l, nil
}
