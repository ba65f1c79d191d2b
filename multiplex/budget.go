package multiplex

import (
	"context"
	"errors"
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

	// state says how the context stands, read without the lock by Err
	// (asked once or twice per command). Err is one of context's two
	// errors, so the state is the error: no error field. The timer, once
	// armed, ends the context itself, so Err stops reading the clock.
	state atomic.Uint32

	mu    sync.Mutex
	done  chan struct{} // made on the first Done
	timer *time.Timer
}

// deadlineCtx states; the last two are final.
const (
	live     uint32 = iota // no error yet, no timer
	armed                  // no error yet, the timer will end it
	canceled               // Err is context.Canceled
	expired                // Err is context.DeadlineExceeded
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
		case c.state.Load() >= canceled:
			close(c.done)
		case d <= 0:
			c.state.Store(expired)
			close(c.done)
		default:
			c.timer = time.AfterFunc(d, func() { c.finish(context.DeadlineExceeded) })
			c.state.Store(armed)
		}
	}
	return c.done
}

func (c *deadlineCtx) Err() error {
	st := c.state.Load()
	switch st {
	case canceled:
		return context.Canceled
	case expired:
		return context.DeadlineExceeded
	}
	if err := c.Context.Err(); err != nil {
		c.finish(err)
		return c.Err()
	}
	// Armed: the timer ends it at the deadline; only the parent was left.
	if st == live && !time.Now().Before(c.at) {
		c.finish(context.DeadlineExceeded)
		return c.Err()
	}
	return nil
}

// finish ends the context with err (the first end wins) and stops its
// timer. err is context.Canceled or context.DeadlineExceeded, as every
// context's Err is; anything else counts as canceled.
func (c *deadlineCtx) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timer != nil {
		c.timer.Stop()
	}
	if c.state.Load() >= canceled {
		return
	}
	if errors.Is(err, context.DeadlineExceeded) {
		c.state.Store(expired)
	} else {
		c.state.Store(canceled)
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
