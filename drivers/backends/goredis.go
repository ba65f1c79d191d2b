package backends

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/multiplex"
)

func init() {
	RegisterRedisClient("goredis", func(_ context.Context, s Spec) ([]multiplex.Node, func() error, error) {
		switch s.Mux {
		case "sequential", "fanout":
		default:
			return nil, nil, fmt.Errorf("--mux %q: not yet available with --client goredis", s.Mux)
		}
		nodes := goredis.Dial(s.RedisAddrs, goredis.Options{PoolSize: s.Workers})
		return goredis.Nodes(nodes), func() error { return goredis.CloseAll(nodes) }, nil
	})
}
