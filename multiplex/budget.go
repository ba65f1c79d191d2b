package multiplex

import (
	"context"
	"sync"
	"time"
)

// budget is a reusable context for one command's (or one broadcast's)
// per-master time budget. It replaces a context.WithTimeout per command: its
// timer is made once and re-armed, and its Done channel is remade only after
// it fired, so a broadcast that finishes in time allocates nothing.
//
// Deadline() lets the clients set their network deadlines; Done() closes at
// the deadline so clients that wait on it (rueidis's pipelined mode) give up
// then too. Done does not follow the parent's cancellation (that would need
// a registration per use): a parent canceled mid-command ends it at the
// deadline at the latest, and Err reports the parent's error first.
type budget struct {
	parent context.Context
	timer  *time.Timer // calls expire; made once

	mu   sync.Mutex
	at   time.Time
	done chan struct{}
	err  error // set when done was closed
}

var _ context.Context = (*budget)(nil)

func newBudget() *budget {
	b := &budget{done: make(chan struct{})}
	b.timer = time.AfterFunc(time.Hour, b.expire)
	b.timer.Stop()
	return b
}

// arm starts a budget of d under parent. The caller must disarm it before
// arming it again.
func (b *budget) arm(parent context.Context, d time.Duration) {
	at := time.Now().Add(d)
	if pd, ok := parent.Deadline(); ok && pd.Before(at) {
		at = pd
	}
	b.mu.Lock()
	b.parent, b.at = parent, at
	if b.err != nil {
		b.done, b.err = make(chan struct{}), nil
	}
	b.mu.Unlock()
	b.timer.Reset(time.Until(at))
}

// disarm stops the timer and drops the parent.
func (b *budget) disarm() {
	b.timer.Stop()
	b.mu.Lock()
	b.parent = nil
	b.mu.Unlock()
}

// expire closes done if the deadline has passed. A late call left over from
// an earlier arming (its timer fired as it was re-armed) finds the new
// deadline still ahead and does nothing.
func (b *budget) expire() {
	b.mu.Lock()
	if b.err == nil && !time.Now().Before(b.at) {
		b.err = context.DeadlineExceeded
		close(b.done)
	}
	b.mu.Unlock()
}

func (b *budget) Deadline() (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.at, true
}

func (b *budget) Done() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.done
}

func (b *budget) Err() error {
	b.mu.Lock()
	parent, err, at := b.parent, b.err, b.at
	b.mu.Unlock()
	if parent != nil {
		if perr := parent.Err(); perr != nil {
			return perr
		}
	}
	if err == nil && !time.Now().Before(at) {
		err = context.DeadlineExceeded
	}
	return err
}

func (b *budget) Value(key any) any {
	b.mu.Lock()
	parent := b.parent
	b.mu.Unlock()
	if parent == nil {
		return nil
	}
	return parent.Value(key)
}

// budgets are the Sequential strategy's, one per Broadcast in flight.
var budgets = sync.Pool{New: func() any { return newBudget() }}

// doBudget runs cmd on n under b, armed for cmd.Timeout (no budget when the
// timeout is 0).
func doBudget(ctx context.Context, b *budget, n Node, cmd Cmd) Reply {
	if err := ctx.Err(); err != nil {
		return Reply{Status: Failed, Err: err}
	}
	if cmd.Timeout <= 0 {
		return n.Do(ctx, cmd)
	}
	b.arm(ctx, cmd.Timeout)
	r := n.Do(b, cmd)
	b.disarm()
	return r
}
