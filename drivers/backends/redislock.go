package backends

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/bsmlock"
)

func init() {
	Register(Backend{
		Name:      "redislock",
		Describe:  "bsm/redislock (single-instance Redis lock library) on the first master: Obtain with NoRetry, Release, Refresh",
		On:        Redis,
		Servers:   1, // the first master
		Open:      openRedislock,
		Baselines: map[string]func(*Spec){"redislock": func(*Spec) {}},
	})
}

func openRedislock(_ context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if len(at.Masters) == 0 {
		return nil, errors.New("backend redislock: no Redis master")
	}
	return bsmlock.New(at.Masters[0], s.Redlock, s.Workers)
}
