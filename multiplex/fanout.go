package multiplex

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// errFanOutClosed answers a Broadcast on a closed FanOut.
var errFanOutClosed = errors.New("multiplex: fanout closed")

// FanOut asks every master at once and waits for all of them: latency is the
// slowest master's round trip, flat in N. This is what redsync and most
// Redlock libraries do.
//
// It does so without a goroutine or a timer context per command: a
// Broadcast borrows a fan, a set of N−1 long-lived helper goroutines (their
// stacks already grown to the client's depth), hands them masters 1..N−1 and
// serves master 0 itself. All masters are asked at the same instant under
// one deadline per broadcast (deadlineCtx: no registration under the
// caller's context lock, a timer only if a client asks for Done), so every
// master still gets the full per-master timeout. Fans are made on demand,
// as many as Broadcasts ever ran at once, and reused.
type FanOut struct {
	nodes []Node

	mu     sync.Mutex
	free   []*fan
	closed bool
	wg     sync.WaitGroup
}

var _ Strategy = (*FanOut)(nil)

func init() {
	Register("fanout", func(nodes []Node, _ Options) (Strategy, error) { return NewFanOut(nodes), nil })
}

// NewFanOut builds a FanOut strategy over nodes.
func NewFanOut(nodes []Node) *FanOut { return &FanOut{nodes: nodes} }

func (f *FanOut) N() int { return len(f.nodes) }

// Close stops every helper goroutine once the Broadcasts in flight end.
// Broadcasts after Close fail.
func (f *FanOut) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	free := f.free
	f.free = nil
	f.mu.Unlock()
	for _, fn := range free {
		close(fn.start)
	}
	f.wg.Wait() // fans still in a Broadcast are closed as it ends

	return nil
}

// fan is one Broadcast's helpers and scratch space, owned by one Broadcast
// at a time.
type fan struct {
	ctx     context.Context // the broadcast's, with its deadline
	cmd     Cmd
	replies []Reply
	start   chan int      // master index for a helper to serve
	left    atomic.Int32  // helpers still serving this broadcast
	done    chan struct{} // the last helper's signal: one wake-up per broadcast
}

func (f *FanOut) get() *fan {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	if n := len(f.free); n > 0 {
		fn := f.free[n-1]
		f.free = f.free[:n-1]
		return fn
	}
	n := len(f.nodes)
	fn := &fan{replies: make([]Reply, n), start: make(chan int, n), done: make(chan struct{}, 1)}
	f.wg.Add(n - 1)
	for range n - 1 {
		go f.help(fn)
	}
	return fn
}

func (f *FanOut) put(fn *fan) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		close(fn.start)
		return
	}
	f.free = append(f.free, fn)
}

// help serves masters of fn's broadcasts until fn.start is closed.
func (f *FanOut) help(fn *fan) {
	defer f.wg.Done()
	for i := range fn.start {
		fn.replies[i] = do(fn.ctx, f.nodes[i], fn.cmd)
		if fn.left.Add(-1) == 0 {
			fn.done <- struct{}{}
		}
	}
}

func (f *FanOut) Broadcast(ctx context.Context, cmd Cmd, out []Reply) {
	if err := ctx.Err(); err != nil {
		fill(out, Reply{Status: Failed, Err: err})
		return
	}
	if len(f.nodes) == 1 {
		out[0] = doDeadline(ctx, f.nodes[0], cmd)
		return
	}
	fn := f.get()
	if fn == nil {
		fill(out, Reply{Status: Failed, Err: errFanOutClosed})
		return
	}
	fn.cmd, fn.ctx = cmd, ctx
	var dctx *deadlineCtx
	if cmd.Timeout > 0 {
		dctx = withDeadline(ctx, cmd.Timeout)
		fn.ctx = dctx
	}
	fn.left.Store(int32(len(f.nodes) - 1))
	for i := 1; i < len(f.nodes); i++ {
		fn.start <- i
	}
	// The calling goroutine serves master 0 itself: one wake-up fewer. It
	// then waits for one signal from the last helper, not one per master:
	// on a busy scheduler every wake-up is a trip through the run queue.
	out[0] = do(fn.ctx, f.nodes[0], cmd)
	<-fn.done
	copy(out[1:], fn.replies[1:])
	if dctx != nil {
		dctx.cancel()
	}
	clear(fn.replies)
	fn.ctx, fn.cmd = nil, Cmd{}
	f.put(fn)
}

// do runs cmd on n under ctx, which already carries the budget.
func do(ctx context.Context, n Node, cmd Cmd) Reply {
	if err := ctx.Err(); err != nil {
		return Classify(err)
	}
	return n.Do(ctx, cmd)
}

func fill(out []Reply, r Reply) {
	for i := range out {
		out[i] = r
	}
}
