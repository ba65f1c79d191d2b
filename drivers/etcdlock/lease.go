package etcdlock

import (
	"context"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3lock/v3lockpb"

	"github.com/lockbench/lockbench/drivers"
)

// lease is a held etcd lock: a key under the lock name, attached to the
// session's lease.
type lease struct {
	l     *locker
	s     *session
	key   string
	fence uint64
	rpc   bool
	drivers.LeaseState
}

var _ drivers.Lease = (*lease)(nil)

// Unlock deletes the lock key if it is still ours (client mode: a
// compare-and-delete on its create revision; rpc mode: the Unlock RPC), then
// hands the session back, or revokes it with --etcd-session-per-cycle.
func (ls *lease) Unlock(ctx context.Context) error {
	if ls.End() {
		return fmt.Errorf("etcdlock: unlock twice: %w", drivers.ErrNotHeld)
	}

	held, err := ls.release(ctx)
	if err != nil {
		ls.l.pool.discard(ls.s)
		return fmt.Errorf("etcdlock: unlock: %w", err)
	}
	if ls.l.cfg.KeepAlive && ls.s.expired() {
		held = false // the session lost its lease, and the key with it
	}
	if perr := ls.l.pool.put(ctx, ls.s); perr != nil {
		if errors.Is(notHeld(perr), drivers.ErrNotHeld) {
			held = false // the lease had lapsed: the key went with it
		} else {
			return fmt.Errorf("etcdlock: unlock: revoke: %w", perr)
		}
	}
	if !held {
		return fmt.Errorf("etcdlock: %s: %w", ls.key, drivers.ErrNotHeld)
	}
	return nil
}

// release deletes the key; held is false when it was no longer ours (as
// far as the mode can tell).
func (ls *lease) release(ctx context.Context) (held bool, err error) {
	if ls.rpc {
		// The Unlock RPC deletes unconditionally and does not say what it
		// found; a lapsed lease is detected by put's Revoke (per cycle).
		_, err := ls.l.lockc.Unlock(ctx, &v3lockpb.UnlockRequest{Key: []byte(ls.key)})
		return true, err
	}
	cmp := clientv3.Compare(clientv3.CreateRevision(ls.key), "=", int64(ls.fence))
	resp, err := ls.l.cli.Txn(ctx).If(cmp).Then(clientv3.OpDelete(ls.key)).Commit()
	if err != nil {
		return false, err
	}
	return resp.Succeeded, nil
}

// Extend refreshes the session's lease once. etcd leases keep the TTL they
// were granted with, so ttl only documents the caller's wish: ValidUntil
// moves to now + the granted TTL.
func (ls *lease) Extend(ctx context.Context, _ time.Duration) error {
	if ls.Ended() {
		return fmt.Errorf("etcdlock: extend after unlock: %w", drivers.ErrNotHeld)
	}
	start := time.Now()
	resp, err := ls.l.cli.KeepAliveOnce(ctx, ls.s.lease())
	if err != nil {
		return fmt.Errorf("etcdlock: extend: %w", notHeld(err))
	}
	ls.SetValidUntil(start.Add(time.Duration(resp.TTL) * time.Second))
	return nil
}

func (ls *lease) Fence() uint64 { return ls.fence }
