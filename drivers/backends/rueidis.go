package backends

import (
	"context"

	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/rueidis"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/results/fielderr"
)

// rueidis: auto keeps the library's default auto-pipelining; sequential,
// fanout and pipeline dial with DisableAutoPipelining, or every one of them
// would be auto-pipelined behind the strategy's back.
func init() {
	registerRedisClient("rueidis", func(_ context.Context, s Spec, masters []redisconn.Endpoint) ([]multiplex.Node, func() error, error) {
		opt := s.rueidisOptions(s.Mux == "auto")
		switch s.Mux {
		case "sequential", "fanout", "pipeline", "auto":
		default:
			return nil, nil, fielderr.Invalid("mux", s.Mux, "not available with --client rueidis")
		}
		nodes, err := rueidis.Dial(masters, opt)
		if err != nil {
			return nil, nil, err
		}
		return rueidis.Nodes(nodes), func() error { return rueidis.CloseAll(nodes) }, nil
	})
}
