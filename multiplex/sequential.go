package multiplex

import "context"

// sequential asks one master after another, each with its own timeout: the
// algorithm exactly as the Redlock post's step 2 states it. Acquire latency
// grows with N round trips.
type sequential struct{ nodes []Node }

var _ Strategy = (*sequential)(nil)

func init() {
	Register("sequential", func(nodes []Node, _ Options) (Strategy, error) { return NewSequential(nodes), nil })
}

// NewSequential builds a Sequential strategy over nodes.
func NewSequential(nodes []Node) *sequential { return &sequential{nodes: nodes} }

func (s *sequential) N() int       { return len(s.nodes) }
func (s *sequential) Close() error { return nil }

// Broadcast gives each master its own budget of cmd.Timeout from when it is
// asked, as a deadlineCtx (budget.go): no timer unless the client asks for
// Done.
func (s *sequential) Broadcast(ctx context.Context, cmd Cmd, out []Reply) {
	for i, n := range s.nodes {
		out[i] = doDeadline(ctx, n, cmd)
	}
}
