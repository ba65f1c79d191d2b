package multiplex

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// errClosed answers commands sent to a closed Pipeline.
var errClosed = errors.New("multiplex: pipeline closed")

// DefaultBatch is the Pipeline batch size when Options.Batch is 0. It is
// large enough that 256 closed-loop workers fit one flush per master: on the
// 2-core reference machine 256 gave ~1.5× the throughput of 64 at 256
// workers, and a lone worker's batch is 1 whatever the cap.
const DefaultBatch = 256

// Pipeline queues the commands of many concurrent lockers per master and
// flushes each master's queue as one pipeline (BatchNode.DoBatch) when it
// drains, a batch fills or Options.FlushDelay passes: "poor man's
// multiplexing". A Broadcast enqueues on every master before waiting, so the
// N writes overlap and latency stays flat in N, while one round trip carries
// many lockers' commands.
//
// Each master has one writer goroutine (a lane): batches leave in queue
// order and replies are matched to callers by position. A batch runs under
// the strategy's own context, bounded by the longest per-master timeout in
// it, never under a caller's: a caller that gives up (ctx done, timeout)
// abandons its slot, and the batch, the connection and every other caller in
// it carry on undisturbed.
type Pipeline struct {
	lanes  []*lane
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	calls  sync.Pool
}

var _ Strategy = (*Pipeline)(nil)

func init() {
	Register("pipeline", func(nodes []Node, opt Options) (Strategy, error) { return NewPipeline(nodes, opt) })
}

// NewPipeline builds a Pipeline over nodes, which must all be BatchNodes.
func NewPipeline(nodes []Node, opt Options) (*Pipeline, error) {
	if opt.Batch < 0 || opt.FlushDelay < 0 {
		return nil, fmt.Errorf("multiplex: pipeline: batch %d and flush delay %v must not be negative", opt.Batch, opt.FlushDelay)
	}
	if opt.Batch == 0 {
		opt.Batch = DefaultBatch
	}
	if len(nodes) > maxLanes {
		return nil, fmt.Errorf("multiplex: pipeline: %d masters, at most %d", len(nodes), maxLanes)
	}
	p := &Pipeline{lanes: make([]*lane, len(nodes))}
	for i, n := range nodes {
		bn, ok := n.(BatchNode)
		if !ok {
			return nil, fmt.Errorf("multiplex: pipeline: node %s (%T) cannot run a batch", n.Addr(), n)
		}
		p.lanes[i] = &lane{node: bn, idx: i, batch: opt.Batch, delay: opt.FlushDelay,
			wake: make(chan struct{}, 1), full: make(chan struct{}, 1)}
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	n := len(nodes)
	p.calls.New = func() any { return newCall(n) }
	for _, l := range p.lanes {
		p.wg.Add(1)
		go func(l *lane) {
			defer p.wg.Done()
			l.run(p.ctx)
		}(l)
	}
	return p, nil
}

func (p *Pipeline) N() int { return len(p.lanes) }

// Close stops the writers; commands still queued are answered Failed.
func (p *Pipeline) Close() error {
	p.cancel()
	p.wg.Wait()
	return nil
}

// maxLanes bounds the masters of a Pipeline: a call marks its answered
// lanes in one 64-bit mask.
const maxLanes = 64

// call is one Broadcast in flight. A lane writes replies[i] and then sets
// bit i of got; the lane that completes the mask signals done, so the caller
// wakes once per Broadcast, not once per master (on a busy scheduler each
// wake-up is a trip through the run queue). The caller reads replies[i] only
// after seeing bit i, so a caller that gave up never races a late writer.
// Fully answered calls are reused.
type call struct {
	replies []Reply
	got     atomic.Uint64 // bit i: replies[i] is written
	all     uint64        // every lane's bit
	done    chan struct{} // capacity 1: got == all
	timer   *time.Timer
}

// newCall makes a call over n ≤ maxLanes lanes.
func newCall(n int) *call {
	all := uint64(1)<<uint(n) - 1 // n = 64: the shift gives 0, minus 1 all ones
	return &call{replies: make([]Reply, n), all: all, done: make(chan struct{}, 1), timer: stoppedTimer()}
}

// answer stores lane i's reply and wakes the caller if it was the last.
func (c *call) answer(i int, r Reply) {
	c.replies[i] = r
	bit := uint64(1) << uint(i)
	if c.got.Or(bit)|bit == c.all {
		c.done <- struct{}{}
	}
}

// pending is one command queued on one lane.
type pending struct {
	cmd Cmd
	c   *call
}

func (p *Pipeline) Broadcast(ctx context.Context, cmd Cmd, out []Reply) {
	if err := ctx.Err(); err != nil {
		for i := range out {
			out[i] = Reply{Status: Failed, Err: err}
		}
		return
	}
	c := p.calls.Get().(*call)
	for _, l := range p.lanes {
		l.enqueue(pending{cmd: cmd, c: c})
	}
	var timeout <-chan time.Time
	if cmd.Timeout > 0 {
		c.timer.Reset(cmd.Timeout)
		timeout = c.timer.C
	}
	select {
	case <-c.done:
	case <-timeout:
		c.abandon(out, Reply{Status: TimedOut, Err: context.DeadlineExceeded})
		return
	case <-ctx.Done():
		c.timer.Stop()
		c.abandon(out, Reply{Status: Failed, Err: ctx.Err()})
		return
	}
	c.timer.Stop()
	copy(out, c.replies)
	clear(c.replies)
	c.got.Store(0)
	p.calls.Put(c)
}

// abandon copies the replies the lanes have written and fills the others
// with r; the call is left to the garbage collector, since late lanes may
// still write into it.
func (c *call) abandon(out []Reply, r Reply) {
	got := c.got.Load()
	for i := range out {
		if got&(1<<uint(i)) != 0 {
			out[i] = c.replies[i]
		} else {
			out[i] = r
		}
	}
}

func stoppedTimer() *time.Timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}

// lane is one master's queue and its writer.
type lane struct {
	node  BatchNode
	idx   int
	batch int
	delay time.Duration

	mu     sync.Mutex
	queue  []pending
	closed bool
	wake   chan struct{} // capacity 1: "the queue became non-empty"
	full   chan struct{} // capacity 1: "the queue reached a batch"
}

func (l *lane) enqueue(p pending) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		l.fail([]pending{p}, errClosed)
		return
	}
	l.queue = append(l.queue, p)
	n := len(l.queue)
	l.mu.Unlock()
	switch {
	case n == 1:
		signal(l.wake)
	case n == l.batch && l.delay > 0:
		signal(l.full)
	}
}

// signal posts on a capacity-1 channel without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// take swaps the queue out for spare (emptied), so enqueuers never wait on a
// flush.
func (l *lane) take(spare []pending) []pending {
	l.mu.Lock()
	q := l.queue
	l.queue = spare[:0]
	l.mu.Unlock()
	return q
}

func (l *lane) run(ctx context.Context) {
	var (
		spare []pending
		cmds  = make([]Cmd, 0, l.batch)
		out   = make([]Reply, l.batch)
		timer = stoppedTimer() // the linger's, re-armed per flush
	)
	for {
		select {
		case <-l.wake:
		case <-ctx.Done():
			l.mu.Lock()
			l.closed = true
			q := l.queue
			l.queue = nil
			l.mu.Unlock()
			l.fail(q, errClosed)
			return
		}
		if l.delay > 0 {
			l.linger(ctx, timer)
		}
		q := l.take(spare)
		for start := 0; start < len(q); start += l.batch {
			chunk := q[start:min(start+l.batch, len(q))]
			cmds = cmds[:0]
			var budget time.Duration
			for _, p := range chunk {
				cmds = append(cmds, p.cmd)
				budget = max(budget, p.cmd.Timeout)
			}
			l.flush(ctx, cmds, out[:len(chunk)], budget)
			for j, p := range chunk {
				p.c.answer(l.idx, out[j])
			}
		}
		clear(q) // drop references to finished calls
		spare = q
	}
}

// linger waits up to the flush delay for the queue to fill a batch: woken
// by the enqueue that fills it, the timer or ctx, never by polling.
func (l *lane) linger(ctx context.Context, timer *time.Timer) {
	select {
	case <-l.full: // a stale signal from a batch already flushed
	default:
	}
	l.mu.Lock()
	n := len(l.queue)
	l.mu.Unlock()
	if n >= l.batch {
		return
	}
	timer.Reset(l.delay)
	select {
	case <-l.full:
	case <-timer.C:
		return
	case <-ctx.Done():
	}
	timer.Stop() // since Go 1.23 no stale tick can be received after Stop
}

// flush runs one batch bounded by the longest per-master timeout in it, as
// a deadlineCtx (budget.go): no timer unless the client asks for Done.
func (l *lane) flush(ctx context.Context, cmds []Cmd, out []Reply, budget time.Duration) {
	if budget <= 0 {
		l.node.DoBatch(ctx, cmds, out)
		return
	}
	dctx := withDeadline(ctx, budget)
	l.node.DoBatch(dctx, cmds, out)
	dctx.cancel()
}

func (l *lane) fail(q []pending, err error) {
	for _, p := range q {
		p.c.answer(l.idx, Reply{Status: Failed, Err: err})
	}
}
