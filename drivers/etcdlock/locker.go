package etcdlock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3lock/v3lockpb"
	"go.uber.org/zap"

	"github.com/lockbench/lockbench/drivers"
)

// locker takes etcd locks. It is safe for concurrent use by many workers.
type locker struct {
	cfg   Config
	cli   *clientv3.Client
	lockc v3lockpb.LockClient
	pool  *pool
	stop  context.CancelFunc
}

var _ drivers.Locker = (*locker)(nil)

// New dials the cluster at endpoints (host:port of its members).
func New(ctx context.Context, endpoints []string, cfg Config) (*locker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(endpoints) == 0 {
		return nil, errors.New("etcdlock: no endpoints")
	}
	cc := clientv3.Config{
		Endpoints: endpoints, DialTimeout: 5 * time.Second, Context: context.WithoutCancel(ctx), Logger: zap.NewNop(),
	}
	if err := cfg.Access.Apply(&cc); err != nil {
		return nil, err
	}
	cli, err := clientv3.New(cc)
	if err != nil {
		return nil, fmt.Errorf("etcdlock: dial %v: %w", endpoints, err)
	}
	bg, stop := context.WithCancel(context.Background())
	return &locker{
		cfg: cfg, cli: cli, lockc: v3lockpb.NewLockClient(cli.ActiveConnection()),
		pool: &pool{cli: cli, cfg: cfg, bg: bg}, stop: stop,
	}, nil
}

// Lock makes one attempt on key; see Config for what one attempt is in
// each mode. The attempt counts as one master.
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: 1}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	start := time.Now()
	actx, cancel := context.WithTimeout(ctx, l.cfg.WaitTimeout)
	defer cancel()
	s, err := l.pool.get(actx)
	if err != nil {
		att.Elapsed = time.Since(start)
		return nil, att, l.failed(ctx, actx, &att, err)
	}
	name := l.cfg.Prefix + key
	var ls *lease
	if l.cfg.Mode == ModeRPC {
		ls, err = l.lockRPC(actx, s, name)
	} else {
		ls, err = l.lockMutex(actx, s, name)
	}
	att.Elapsed = time.Since(start)
	if err == nil {
		ls.SetValidUntil(validUntil(s, start))
		att.Won, att.Validity = 1, time.Until(ls.ValidUntil())
		return ls, att, nil
	}
	switch {
	case errors.Is(err, concurrency.ErrLocked):
		// TryLock found a holder and deleted its own waiter key: clean.
		_ = l.pool.put(context.WithoutCancel(ctx), s)
		att.HeldByOther = 1
		return nil, att, fmt.Errorf("etcdlock: %s: %w", key, drivers.ErrBusy)
	case l.cfg.waits() && ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded):
		// Queued behind a holder for the whole wait. Our waiter key may
		// have been created just as we gave up: remove it so the reused
		// session does not hold the key behind our back.
		l.dropKey(ctx, s, name)
		att.HeldByOther = 1
		return nil, att, fmt.Errorf("etcdlock: %s: waited %v: %w", key, l.cfg.WaitTimeout, drivers.ErrBusy)
	}
	l.pool.discard(s) // state unknown: revoking the lease removes any key it left
	if errors.Is(err, concurrency.ErrSessionExpired) && ctx.Err() == nil {
		// The attempt outlived its own lease (without keep-alive a lease
		// lives TTL from its Grant: a long wait, or a slow machine), so its
		// waiter key lapsed before the grant: validity used up, the
		// outcome Redlock calls a timeout, not a failing server.
		att.TimedOut = 1
		return nil, att, fmt.Errorf("etcdlock: %s: the lease ran out before the grant: %w", key, drivers.ErrTimeout)
	}
	return nil, att, l.failed(ctx, actx, &att, err)
}

// validUntil is the deadline the holder may trust: a fresh lease lives TTL
// from its Grant; a reused kept-alive one was refreshed at most TTL/3 ago
// (the client refreshes every TTL/3), so at least 2/3 TTL is left.
func validUntil(s *session, attemptStart time.Time) time.Time {
	if !s.reused {
		return s.granted.Add(s.ttl)
	}
	return attemptStart.Add(s.ttl * 2 / 3)
}

// failed tallies and wraps an attempt that errored for another reason than
// a holder.
func (l *locker) failed(ctx, actx context.Context, att *drivers.Attempt, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("etcdlock: %w (%v)", ctx.Err(), err)
	case actx.Err() != nil:
		att.TimedOut = 1
		return fmt.Errorf("etcdlock: no answer in %v: %w", l.cfg.WaitTimeout, drivers.ErrTimeout)
	}
	att.Failed = 1
	return fmt.Errorf("etcdlock: %w", err)
}

func (l *locker) lockMutex(ctx context.Context, s *session, name string) (*lease, error) {
	m := concurrency.NewMutex(s.s, name)
	var err error
	if l.cfg.Wait {
		err = m.Lock(ctx)
	} else {
		err = m.TryLock(ctx)
	}
	if err != nil {
		return nil, err
	}
	// IsOwner compares the key's create revision with ours: that revision
	// is the fencing token.
	owner := m.IsOwner()
	fence := owner.GetCompare().GetCreateRevision()
	return &lease{l: l, s: s, key: m.Key(), fence: uint64(fence)}, nil
}

func (l *locker) lockRPC(ctx context.Context, s *session, name string) (*lease, error) {
	resp, err := l.lockc.Lock(ctx, &v3lockpb.LockRequest{Name: []byte(name), Lease: int64(s.lease())})
	if err != nil {
		return nil, err
	}
	// The response's revision is the key's create revision when granted at
	// once, and the revision of the server's final check after a wait: it
	// grows with every grant of the name either way.
	return &lease{l: l, s: s, key: string(resp.Key), fence: uint64(resp.Header.GetRevision()), rpc: true}, nil
}

// dropKey deletes the waiter key our lease would have under name (the
// layout concurrency.Mutex and v3lock share: name/<lease hex>).
func (l *locker) dropKey(ctx context.Context, s *session, name string) {
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.cfg.WaitTimeout)
	defer cancel()
	if _, err := l.cli.Delete(dctx, fmt.Sprintf("%s/%x", name, int64(s.lease()))); err != nil {
		l.pool.discard(s)
		return
	}
	_ = l.pool.put(dctx, s)
}

// Close revokes the idle sessions and closes the client. Leases still held
// lapse after their TTL.
func (l *locker) Close() error {
	l.pool.close()
	l.stop()
	return l.cli.Close()
}

// notHeld maps etcd's "lease is gone" to drivers.ErrNotHeld.
func notHeld(err error) error {
	if errors.Is(err, rpctypes.ErrLeaseNotFound) {
		return fmt.Errorf("etcdlock: %w: %v", drivers.ErrNotHeld, err)
	}
	return err
}
