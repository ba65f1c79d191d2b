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

// pipeline queues the commands of many concurrent lockers per master and
// flushes each master's queue as one pipeline (BatchNode.DoBatch) when it
// drains, a batch fills or Options.FlushDelay passes: "poor man's
// multiplexing". A Broadcast enqueues on every master before waiting, so the
// N writes overlap and latency stays flat in N, while one round trip carries
// many lockers' commands.
//
// Each master has a lane: a queue and long-lived writer goroutines. A batch
// leaves as soon as commands are queued and fewer batches of that master
// than its limit are in flight: Options.MaxInFlight if set, else a limit
// that adapts to the master's distance (inflight.go): 1 close by, so the
// commands that arrive while a batch travels leave together as the next
// one; up to DefaultMaxInFlight far away, so they leave at once instead of
// waiting for its reply (after one yield that lets the callers woken
// together join them: lane.gather). Replies are matched to callers by position within
// their batch, and while more than one batch may be in flight a command
// whose key is in a batch still in flight waits for that batch, so each
// master sees a key's commands in queue order. Batches in flight at once
// each hold their own connection: go-redis's Pipelined takes a pool
// connection per call, and rueidis's DoMulti does too with auto-pipelining
// off (as this strategy dials it; with auto-pipelining on it would share
// one pipelined connection). A batch runs under the strategy's own context,
// bounded by the longest per-master timeout in it, never under a caller's:
// a caller that gives up (ctx done, timeout) abandons its slot, and the
// batch, the connection and every other caller in it carry on undisturbed.
type pipeline struct {
	lanes  []*lane
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	calls  sync.Pool
}

var _ Strategy = (*pipeline)(nil)

func init() {
	Register("pipeline", func(nodes []Node, opt Options) (Strategy, error) { return newPipeline(nodes, opt) })
}

// newPipeline builds a Pipeline over nodes, which must all be BatchNodes.
func newPipeline(nodes []Node, opt Options) (*pipeline, error) {
	if opt.Batch < 0 || opt.FlushDelay < 0 || opt.MaxInFlight < 0 {
		return nil, fmt.Errorf("multiplex: pipeline: batch %d, flush delay %v and max in flight %d must not be negative", opt.Batch, opt.FlushDelay, opt.MaxInFlight)
	}
	if opt.Batch == 0 {
		opt.Batch = DefaultBatch
	}
	if len(nodes) > maxLanes {
		return nil, fmt.Errorf("multiplex: pipeline: %d masters, at most %d", len(nodes), maxLanes)
	}
	p := &pipeline{lanes: make([]*lane, len(nodes))}
	for i, n := range nodes {
		bn, ok := n.(BatchNode)
		if !ok {
			return nil, fmt.Errorf("multiplex: pipeline: node %s (%T) cannot run a batch", n.Addr(), n)
		}
		p.lanes[i] = newLane(bn, i, opt)
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	n := len(nodes)
	p.calls.New = func() any { return newCall(n) }
	for _, l := range p.lanes {
		for range l.limit.most {
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				l.write(p.ctx)
			}()
		}
	}
	return p, nil
}

func (p *pipeline) N() int { return len(p.lanes) }

// Close stops the writers and waits for the batches in flight, each ending
// within its budget with its callers answered; commands still queued are
// answered Failed.
func (p *pipeline) Close() error {
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
// Fully answered calls are reused. A call its caller gave up on (timed
// out, cancelled) is gone: lanes that have not yet taken its acquire or
// extend drop it instead of sending it (pending.dropped), so under
// overload the queues hold commands someone still waits for, and the
// releases that clean up (sending the rest would put every later command
// behind work nobody reads, until all of them time out).
type call struct {
	replies []Reply
	got     atomic.Uint64 // bit i: replies[i] is written
	gone    atomic.Bool   // the caller stopped waiting
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

func (p *pipeline) Broadcast(ctx context.Context, cmd Cmd, out []Reply) {
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
	c.gone.Store(true)
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
