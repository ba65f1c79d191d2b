package bsmlock

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

func init() {
	backends.Register(backends.Backend{
		Name:      "redislock",
		Describe:  "bsm/redislock (single-instance Redis lock library) on the first master: Obtain with NoRetry, Release, Refresh",
		On:        backends.Redis,
		Servers:   1, // the first master
		Open:      openRedislock,
		Baselines: map[string]func(*backends.Spec){"redislock": func(*backends.Spec) {}},
	})
}

func openRedislock(_ context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	if len(at.Masters) == 0 {
		return nil, errors.New("backend redislock: no Redis master")
	}
	return New(at.Masters[0], s.Redlock, s.Workers)
}
