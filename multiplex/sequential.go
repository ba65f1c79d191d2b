package multiplex

import "context"

// Sequential asks one master after another, each with its own timeout: the
// algorithm exactly as the Redlock post's step 2 states it. Acquire latency
// grows with N round trips.
type Sequential struct{ nodes []Node }

var _ Strategy = (*Sequential)(nil)

func init() {
	Register("sequential", func(nodes []Node, _ Options) (Strategy, error) { return NewSequential(nodes), nil })
}

// NewSequential builds a Sequential strategy over nodes.
func NewSequential(nodes []Node) *Sequential { return &Sequential{nodes: nodes} }

func (s *Sequential) N() int       { return len(s.nodes) }
func (s *Sequential) Close() error { return nil }

func (s *Sequential) Broadcast(ctx context.Context, cmd Cmd, out []Reply) {
	for i, n := range s.nodes {
		out[i] = doWithTimeout(ctx, n, cmd)
	}
}

// doWithTimeout runs cmd on n under the per-master timeout.
func doWithTimeout(ctx context.Context, n Node, cmd Cmd) Reply {
	if err := ctx.Err(); err != nil {
		return Reply{Status: Failed, Err: err}
	}
	if cmd.Timeout <= 0 {
		return n.Do(ctx, cmd)
	}
	tctx, cancel := context.WithTimeout(ctx, cmd.Timeout)
	r := n.Do(tctx, cmd)
	cancel()
	return r
}
