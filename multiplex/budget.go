package multiplex

import (
	"context"
	"sync"
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

	mu    sync.Mutex
	done  chan struct{} // made on the first Done
	err   error         // set once, before done is closed
	timer *time.Timer
}

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
			close(c.done)
		default:
			c.timer = time.AfterFunc(d, func() { c.finish(context.DeadlineExceeded) })
		}
	}
	return c.done
}

func (c *deadlineCtx) Err() error {
	c.mu.Lock()
	err := c.err
	c.mu.Unlock()
	if err != nil {
		return err
	}
	if err := c.Context.Err(); err != nil {
		c.finish(err)
		return err
	}
	if !time.Now().Before(c.at) {
		c.finish(context.DeadlineExceeded)
		return context.DeadlineExceeded
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
