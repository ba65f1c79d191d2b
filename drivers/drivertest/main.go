package drivertest

import (
	"context"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/testenv"
)

// Masters is a testenv Setup that starts n local redis-server masters and
// sets *servers; the masters stop after the package's tests.
func Masters(n int, servers **compose.Redis) func(context.Context) (func(), error) {
	return testenv.Start(
		func(ctx context.Context) (*compose.Redis, error) {
			return compose.StartRedis(ctx, compose.RedisOptions{Masters: n})
		},
		func(r *compose.Redis) { *servers = r })
}
