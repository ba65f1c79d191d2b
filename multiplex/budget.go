package multiplex

import (
	"context"
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
// Two cheaper shapes, both immutable:
//   - deadlineCtx, one small allocation and no timer, where the clients
//     enforce the deadline themselves through network deadlines (the
//     non-pipelined connections Sequential and Pipeline run on);
//   - one timer context per Broadcast, shared by all masters, over a
//     detached parent (no registration), where a client waits on Done
//     (FanOut and Auto: rueidis's auto-pipelining waits on Done).

// deadlineCtx carries a deadline without a timer: Deadline() is at, Done()
// and Value() are the parent's, Err() is the parent's error or, once at has
// passed, DeadlineExceeded. Done does not close at the deadline: a client
// that only waits on Done is bounded by its parent, not by at.
type deadlineCtx struct {
	context.Context
	at time.Time
}

func withDeadline(parent context.Context, d time.Duration) context.Context {
	return &deadlineCtx{Context: parent, at: time.Now().Add(d)}
}

func (c *deadlineCtx) Deadline() (time.Time, bool) {
	if pd, ok := c.Context.Deadline(); ok && pd.Before(c.at) {
		return pd, true
	}
	return c.at, true
}

func (c *deadlineCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.at) {
		return context.DeadlineExceeded
	}
	return nil
}

// doDeadline runs cmd on n with a deadline of cmd.Timeout (none when 0).
func doDeadline(ctx context.Context, n Node, cmd Cmd) Reply {
	if err := ctx.Err(); err != nil {
		return Reply{Status: Failed, Err: err}
	}
	if cmd.Timeout <= 0 {
		return n.Do(ctx, cmd)
	}
	return n.Do(withDeadline(ctx, cmd.Timeout), cmd)
}

// detached caches context.WithoutCancel of the last parent seen: workers
// pass the same run context on every call, and a detached context is
// immutable, so it can be shared.
type detached struct {
	parent, ctx context.Context
}

func (d *detached) of(parent context.Context) context.Context {
	if d.parent != parent {
		d.parent, d.ctx = parent, context.WithoutCancel(parent)
	}
	return d.ctx
}
