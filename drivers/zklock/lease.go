package zklock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/lockbench/lockbench/drivers"
)

// lease is a held lock: our znode, the lowest under the lock's node.
type lease struct {
	l     *Locker
	node  string
	fence uint64
	drivers.LeaseState
}

var _ drivers.Lease = (*lease)(nil)

// Unlock deletes our znode. A znode already gone (the session expired and
// took it) means the lock had been lost.
func (ls *lease) Unlock(ctx context.Context) error {
	if ls.End() {
		return fmt.Errorf("zklock: unlock twice: %w", drivers.ErrNotHeld)
	}
	// Delete even when ctx has ended, and keep at it in the background
	// when the server cannot be reached: a znode left behind would hold the
	// lock for as long as the (shared, kept-alive) session lives. The call
	// is bounded by the session timeout.
	err := ls.l.guaranteedDelete(ls.node)
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return fmt.Errorf("zklock: %s: %w", ls.node, drivers.ErrNotHeld)
	case err != nil:
		return fmt.Errorf("zklock: unlock: %w", err)
	}
	return nil
}

// Extend proves the lock is still ours (our znode exists and belongs to
// our session) with one round trip, which also proves the session alive:
// ValidUntil moves to a session timeout from the call. ttl is not used; a
// ZooKeeper lock lives as long as its session.
func (ls *lease) Extend(ctx context.Context, _ time.Duration) error {
	if ls.Ended() {
		return fmt.Errorf("zklock: extend after unlock: %w", drivers.ErrNotHeld)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	start := time.Now()
	ok, st, err := ls.l.conn.Exists(ls.node)
	switch {
	case err != nil:
		return fmt.Errorf("zklock: extend: %w", err)
	case !ok || st.EphemeralOwner != ls.l.conn.SessionID():
		return fmt.Errorf("zklock: %s: %w", ls.node, drivers.ErrNotHeld)
	}
	ls.SetValidUntil(start.Add(ls.l.cfg.SessionTimeout))
	return nil
}

// Fence is the znode's czxid.
func (ls *lease) Fence() uint64 { return ls.fence }
