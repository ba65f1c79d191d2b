// Package up starts the servers a package's tests share, as testenv
// Setups: compose's servers for the tests of drivers, workloads and the
// CLI. (testenv itself cannot import compose: compose's own tests use it.)
package up

import (
	"context"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/testenv"
)

// Redis is a testenv Setup that starts n local redis-server masters and
// sets *servers; the masters stop after the package's tests.
func Redis(n int, servers **compose.Redis) func(context.Context) (func(), error) {
	return testenv.Start(
		func(ctx context.Context) (*compose.Redis, error) {
			return compose.StartRedis(ctx, compose.RedisOptions{Masters: n})
		},
		func(r *compose.Redis) { *servers = r })
}
