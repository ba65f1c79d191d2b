package multiplex

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A per-master budget must reach the client as a context deadline, but a
// context.WithTimeout per command costs a timer, a channel and a
// registration in the parent's children (under the parent's lock, shared by
// every worker): 5–12 % of a fan-out's CPU and most of its allocations.
// Contexts must also be immutable: client libraries keep them past the call
// (go-redis dials in the background under the caller's context), so a
// re-armed, reused context object is not an option (it was tried: a late
// watcher saw a recycled context's Done closed and its Err nil).
//
// deadlineCtx is one small allocation with a lazy timer: Deadline() is all
// the clients' network deadlines need (rueidis's pooled connections never
// ask for Done), and only a client that asks for Done (go-redis's pool wait,
// rueidis's auto-pipelining) gets a channel and a timer, made then. It is
// not registered with its parent: a parent's cancellation is seen by Err
// (which then closes Done), otherwise the command ends at its deadline at
// the latest. Sequential makes one per master, FanOut and Auto one per
// broadcast (all masters are asked at the same instant), Pipeline one per
// flush.
type deadlineCtx struct {
	context.Context
	at time.Time

	// state is the lock-free view of err for Err, asked once or twice per
	// command: live until set, then which error. The timer, once armed,
	// ends the context itself, so Err stops reading the clock.
	state atomic.Uint32

	mu    sync.Mutex
	done  chan struct{} // made on the first Done
	err   error         // set once, before done is closed
	timer *time.Timer
}

// deadlineCtx states.
const (
	live      uint32 = iota // no error yet, no timer
	armed                   // no error yet, the timer will end it
	ended                   // err is set
	cancelled               // err is context.Canceled (the usual end)
)

func withDeadline(parent context.Context, d time.Duration) *deadlineCtx {
	return &deadlineCtx{Context: parent, at: time.Now().Add(d)}
}

func (c *deadlineCtx) Deadline() (time.Time, bool) {
	if pd, ok := c.Context.Deadline(); ok && pd.Before(c.at) {
		return pd, true
	}
	return c.at, true
}

func (c *deadlineCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		switch d := time.Until(c.at); {
		case c.err != nil:
			close(c.done)
		case d <= 0:
			c.err = context.DeadlineExceeded
			c.state.Store(ended)
			close(c.done)
		default:
			c.timer = time.AfterFunc(d, func() { c.finish(context.DeadlineExceeded) })
			c.state.Store(armed)
		}
	}
	return c.done
}

func (c *deadlineCtx) Err() error {
	switch c.state.Load() {
	case cancelled:
		return context.Canceled
	case ended:
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.err
	case armed:
		// The timer ends it at the deadline; only the parent is left to ask.
		if err := c.Context.Err(); err != nil {
			c.finish(err)
			return c.Err()
		}
		return nil
	}
	if err := c.Context.Err(); err != nil {
		c.finish(err)
		return c.Err()
	}
	if !time.Now().Before(c.at) {
		c.finish(context.DeadlineExceeded)
		return c.Err()
	}
	return nil
}

// finish ends the context with err (the first one wins) and stops its timer.
func (c *deadlineCtx) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.err != nil {
		return
	}
	c.err = err
	if err == context.Canceled {
		c.state.Store(cancelled)
	} else {
		c.state.Store(ended)
	}
	if c.done != nil {
		close(c.done)
	}
}

// cancel ends the context once its command is done, like a CancelFunc.
func (c *deadlineCtx) cancel() { c.finish(context.Canceled) }

// doDeadline runs cmd on n with a deadline of cmd.Timeout (none when 0).
func doDeadline(ctx context.Context, n Node, cmd Cmd) Reply {
	if err := ctx.Err(); err != nil {
		return Reply{Status: Failed, Err: err}
	}
	if cmd.Timeout <= 0 {
		return n.Do(ctx, cmd)
	}
	dctx := withDeadline(ctx, cmd.Timeout)
	r := n.Do(dctx, cmd)
	dctx.cancel()
	return r
}
