package pglock

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/lockbench/lockbench/drivers"
)

// lockNotAvailable is SQLSTATE 55P03: lock_timeout ran out while waiting.
const lockNotAvailable = "55P03"

// locker takes advisory locks. Safe for concurrent use; the pool holds a
// connection per worker.
type locker struct {
	cfg               Config
	pool              *pgxpool.Pool
	try, wait, unlock string
}

var _ drivers.Locker = (*locker)(nil)

// New opens a pool of up to poolSize connections to url.
func New(ctx context.Context, url string, cfg Config, poolSize int) (*locker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("pglock: %w", err)
	}
	pc.MaxConns = int32(max(poolSize, 1))
	timeout := strconv.FormatInt(cfg.WaitTimeout.Milliseconds(), 10)
	pc.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		_, err := c.Exec(ctx, "SET lock_timeout = "+timeout)
		return err
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fmt.Errorf("pglock: %w", err)
	}
	l := &locker{cfg: cfg, pool: pool}
	if cfg.Mode == ModeXact {
		l.try, l.wait = "SELECT pg_try_advisory_xact_lock($1)", "SELECT true FROM pg_advisory_xact_lock($1)"
	} else {
		l.try, l.wait, l.unlock = "SELECT pg_try_advisory_lock($1)", "SELECT true FROM pg_advisory_lock($1)", "SELECT pg_advisory_unlock($1)"
	}
	return l, nil
}

// lockID maps a lock name to an advisory lock key (FNV-1a, 64 bits).
func lockID(key string) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return int64(h)
}

// Lock makes one attempt on a pooled connection, which the lease keeps.
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: 1}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	start := time.Now()
	// The server bounds a wait (lock_timeout); this bounds a dead server.
	actx, cancel := context.WithTimeout(ctx, l.cfg.WaitTimeout+time.Second)
	defer cancel()
	conn, err := l.pool.Acquire(actx)
	if err != nil {
		att.Elapsed = time.Since(start)
		return nil, att, l.failed(ctx, actx, &att, err)
	}
	ls := &lease{l: l, conn: conn, id: lockID(key), key: key}
	q := l.try
	if l.cfg.Wait {
		q = l.wait
	}
	var got bool
	if l.cfg.Mode == ModeXact {
		if ls.tx, err = conn.Begin(actx); err == nil {
			err = ls.tx.QueryRow(actx, q, ls.id).Scan(&got)
		}
	} else {
		err = conn.QueryRow(actx, q, ls.id).Scan(&got)
	}
	att.Elapsed = time.Since(start)
	var pgErr *pgconn.PgError
	switch {
	case err == nil && got:
		att.Won = 1
		ls.SetValidUntil(start.Add(l.cfg.TTL))
		att.Validity = time.Until(ls.ValidUntil())
		return ls, att, nil
	case err == nil || (errors.As(err, &pgErr) && pgErr.Code == lockNotAvailable):
		ls.giveBack(ctx)
		att.HeldByOther = 1
		return nil, att, fmt.Errorf("pglock: %s: %w", key, drivers.ErrBusy)
	}
	// The server may have granted the lock before the error: end the
	// session, so a pooled connection never carries a lock nobody knows of
	// (advisory locks are re-entrant: its next user would "win" it again).
	discard(conn)
	return nil, att, l.failed(ctx, actx, &att, err)
}

// failed tallies and wraps an attempt that errored for another reason than
// a holder.
func (l *locker) failed(ctx, actx context.Context, att *drivers.Attempt, err error) error {
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("pglock: %w (%v)", ctx.Err(), err)
	case actx.Err() != nil:
		att.TimedOut = 1
		return fmt.Errorf("pglock: no answer: %w", drivers.ErrTimeout)
	}
	att.Failed = 1
	return fmt.Errorf("pglock: %w", err)
}

// discard closes conn's session (and with it any lock it holds) instead of
// returning it to the pool.
func discard(conn *pgxpool.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = conn.Conn().Close(ctx)
	conn.Release() // a closed connection is destroyed, not pooled
}

// Close closes the pool; the server ends the sessions and their locks.
// The pool's Close waits for every connection in use, which a worker
// blocked on a frozen server may never return: bounded by
// drivers.CloseBudget.
func (l *locker) Close() error {
	return drivers.CloseWithin("pglock", func() error { l.pool.Close(); return nil })
}

// lease is a held advisory lock and the connection (and, in xact mode,
// transaction) it lives on.
type lease struct {
	l    *locker
	conn *pgxpool.Conn
	tx   pgx.Tx
	id   int64
	key  string
	drivers.LeaseState
}

var _ drivers.Lease = (*lease)(nil)

// giveBack ends a failed attempt's transaction and returns the connection.
func (ls *lease) giveBack(ctx context.Context) {
	if ls.tx != nil {
		// Not the attempt's context, which may have ended; bounded, as a
		// frozen server never answers.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		err := ls.tx.Rollback(rctx)
		cancel()
		if err != nil {
			discard(ls.conn)
			return
		}
	}
	ls.conn.Release()
}

// Unlock releases the lock (pg_advisory_unlock, or COMMIT) and returns the
// connection to the pool. pg_advisory_unlock answering false means the
// session did not hold it.
func (ls *lease) Unlock(ctx context.Context) error {
	if ls.End() {
		return fmt.Errorf("pglock: unlock twice: %w", drivers.ErrNotHeld)
	}
	if ls.tx != nil {
		if err := ls.tx.Commit(ctx); err != nil {
			discard(ls.conn) // the transaction's state is unknown: end it
			return fmt.Errorf("pglock: unlock: commit: %w", err)
		}
		ls.conn.Release()
		return nil
	}
	var held bool
	if err := ls.conn.QueryRow(ctx, ls.l.unlock, ls.id).Scan(&held); err != nil {
		discard(ls.conn) // the lock may still be held: end the session
		return fmt.Errorf("pglock: unlock: %w", err)
	}
	ls.conn.Release()
	if !held {
		return fmt.Errorf("pglock: %s: %w", ls.key, drivers.ErrNotHeld)
	}
	return nil
}

// Extend proves the session (and so its lock) alive with one round trip;
// ValidUntil moves to ttl from the call.
func (ls *lease) Extend(ctx context.Context, ttl time.Duration) error {
	if ls.Ended() {
		return fmt.Errorf("pglock: extend after unlock: %w", drivers.ErrNotHeld)
	}
	start := time.Now()
	if err := ls.conn.Ping(ctx); err != nil {
		return fmt.Errorf("pglock: extend: %w", err)
	}
	ls.SetValidUntil(start.Add(ttl))
	return nil
}

// Fence is 0: an advisory lock carries no token.
func (ls *lease) Fence() uint64 { return 0 }
