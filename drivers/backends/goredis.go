package backends

import (
	"context"

	"github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/results/fielderr"
)

// goredis: sequential, fanout and pipeline run over plain clients (pipeline
// through Client.Pipelined); auto sends every command through the client's
// experimental auto-pipeliner (Client.AutoPipeline).
func init() {
	registerRedisClient("goredis", func(_ context.Context, s Spec, masters []redisconn.Endpoint) ([]multiplex.Node, func() error, error) {
		opt := s.goredisOptions(s.Mux == "auto")
		switch s.Mux {
		case "sequential", "fanout", "pipeline":
		case "auto":
			opt.NodeTimeout = s.Redlock.NodeTimeout
		default:
			return nil, nil, fielderr.Invalid("mux", s.Mux, "not available with --client goredis")
		}
		nodes, err := goredis.Dial(masters, opt)
		if err != nil {
			return nil, nil, err
		}
		return goredis.Nodes(nodes), func() error { return goredis.CloseAll(nodes) }, nil
	})
}
