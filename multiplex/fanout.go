package multiplex

import (
	"context"
	"sync"
)

// FanOut asks every master at once, one goroutine per master per command, and
// waits for all of them: latency is the slowest master's round trip, flat in N.
// This is what redsync and most Redlock libraries do.
type FanOut struct{ nodes []Node }

var _ Strategy = (*FanOut)(nil)

func init() {
	Register("fanout", func(nodes []Node, _ Options) (Strategy, error) { return NewFanOut(nodes), nil })
}

// NewFanOut builds a FanOut strategy over nodes.
func NewFanOut(nodes []Node) *FanOut { return &FanOut{nodes: nodes} }

func (f *FanOut) N() int       { return len(f.nodes) }
func (f *FanOut) Close() error { return nil }

func (f *FanOut) Broadcast(ctx context.Context, cmd Cmd, out []Reply) {
	if len(f.nodes) == 1 {
		out[0] = doWithTimeout(ctx, f.nodes[0], cmd)
		return
	}
	var wg sync.WaitGroup
	wg.Add(len(f.nodes) - 1)
	for i := 1; i < len(f.nodes); i++ {
		go func(i int) {
			out[i] = doWithTimeout(ctx, f.nodes[i], cmd)
			wg.Done()
		}(i)
	}
	// The calling goroutine serves master 0 itself: one goroutine fewer per command.
	out[0] = doWithTimeout(ctx, f.nodes[0], cmd)
	wg.Wait()
}
