// Package bsmlock wraps github.com/bsm/redislock — the most used
// single-instance Redis lock in Go — as a drivers.Locker: one go-redis
// client on one endpoint, Obtain with NoRetry (one attempt; retrying is the
// workload's job), Release and Refresh. Like rueidislock's row it answers
// "what does the library I already use cost", not Redlock over N masters.
//
// backend.go registers it as the "redislock" backend.
package bsmlock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
)

// locker takes bsm/redislock locks. Safe for concurrent use.
type locker struct {
	c   *redis.Client
	lk  *redislock.Client
	cfg redlock.Config // TTL, NodeTimeout (bound of one call), drift
}

var _ drivers.Locker = (*locker)(nil)

// New dials the master (address, credentials, TLS) with a pool of
// poolSize connections.
func New(master redisconn.Endpoint, cfg redlock.Config, poolSize int) (*locker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	o := master.GoRedis()
	o.PoolSize, o.MaxRetries, o.DisableIdentity, o.ContextTimeoutEnabled = poolSize, -1, true, true
	c := redis.NewClient(o)
	return &locker{c: c, lk: redislock.New(c), cfg: cfg}, nil
}

// Lock makes one Obtain attempt.
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: 1}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, l.cfg.NodeTimeout)
	defer cancel()
	lk, err := l.lk.Obtain(cctx, key, l.cfg.TTL, &redislock.Options{RetryStrategy: redislock.NoRetry()})
	att.Elapsed = time.Since(start)
	switch {
	case err == nil:
	case errors.Is(err, redislock.ErrNotObtained):
		att.HeldByOther = 1
		return nil, att, fmt.Errorf("bsmlock: %s: %w", key, drivers.ErrBusy)
	case ctx.Err() != nil:
		return nil, att, fmt.Errorf("bsmlock: %w", ctx.Err())
	case cctx.Err() != nil:
		att.TimedOut = 1
		return nil, att, fmt.Errorf("bsmlock: no answer in %v: %w", l.cfg.NodeTimeout, drivers.ErrTimeout)
	default:
		att.Failed = 1
		return nil, att, fmt.Errorf("bsmlock: %w", err)
	}
	att.Validity = l.cfg.Validity(att.Elapsed)
	if att.Validity <= 0 {
		_ = lk.Release(context.WithoutCancel(ctx))
		return nil, att, fmt.Errorf("bsmlock: %s: %w", key, drivers.ErrExpired)
	}
	att.Won = 1
	ls := &lease{l: l, lk: lk}
	ls.SetValidUntil(start.Add(l.cfg.TTL - l.cfg.Drift()))
	return ls, att, nil
}

// Close closes the client.
func (l *locker) Close() error { return l.c.Close() }

type lease struct {
	l  *locker
	lk *redislock.Lock
	drivers.LeaseState
}

var _ drivers.Lease = (*lease)(nil)

func (ls *lease) Unlock(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, ls.l.cfg.NodeTimeout)
	defer cancel()
	err := ls.lk.Release(cctx)
	if errors.Is(err, redislock.ErrLockNotHeld) {
		return fmt.Errorf("bsmlock: %s: %w", ls.lk.Key(), drivers.ErrNotHeld)
	}
	return err
}

func (ls *lease) Extend(ctx context.Context, ttl time.Duration) error {
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, ls.l.cfg.NodeTimeout)
	defer cancel()
	err := ls.lk.Refresh(cctx, ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return fmt.Errorf("bsmlock: %s: %w", ls.lk.Key(), drivers.ErrNotHeld)
	}
	if err != nil {
		return err
	}
	c := ls.l.cfg
	c.TTL = ttl
	ls.SetValidUntil(start.Add(c.Validity(0)))
	return nil
}

func (ls *lease) Fence() uint64 { return 0 }
