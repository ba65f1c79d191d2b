// Package single is the single-instance Redis lock the Redlock post starts
// from: SET key token NX PX ttl on one master (Redlock with N = 1), found
// through redis-sentinel when there is one. With WaitReplicas K it sends
// `WAIT K timeout` on the same connection right after the SET, and a grant
// counts only when K replicas acknowledged it (what Redisson's RLock does):
// a grant the replica never saw cannot survive a failover as a second
// holder. It imports no other backend.
//
// backend.go registers it as the "single" backend, its Config as the
// backend's settings ("single" in a run's JSON, --wait-replicas and
// --wait-timeout).
package single

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/results/fielderr"
)

var (
	releaseScript = redis.NewScript(redlock.ReleaseScript)
	extendScript  = redis.NewScript(redlock.ExtendScript)
)

// ErrNotReplicated: the SET was granted but fewer than WaitReplicas
// replicas acknowledged it within WaitTimeout; the key was released again.
var ErrNotReplicated = errors.New("single: grant not acknowledged by enough replicas")

// Config is the driver's parameters. It serialises into results.
type Config struct {
	// Redlock carries TTL, NodeTimeout (bound of one command) and the
	// drift allowance, as for Redlock.
	// The backend sets it from the run's (Spec.Redlock), so it is no
	// setting of the single backend's own.
	Redlock redlock.Config `json:"-" flag:"-"`
	// WaitReplicas is K of `WAIT K timeout`; 0 sends no WAIT.
	WaitReplicas int `json:"wait_replicas" flag:"wait-replicas" help:"single: WAIT K replicas after the SET before a grant counts (0: no WAIT)"`
	// WaitTimeout is WAIT's timeout.
	WaitTimeout time.Duration `json:"wait_timeout" flag:"wait-timeout" help:"single: WAIT's timeout"`
}

// Validate names the flag at fault.
func (c Config) Validate() error {
	switch {
	case c.WaitReplicas < 0:
		return fielderr.Invalid("wait_replicas", c.WaitReplicas, "must not be negative")
	case c.WaitReplicas > 0 && c.WaitTimeout <= 0:
		return fielderr.Invalid("wait_timeout", c.WaitTimeout, "must be positive")
	}
	return c.Redlock.Validate()
}

// locker takes single-instance locks. Safe for concurrent use.
type locker struct {
	cfg Config
	c   *redis.Client
}

var _ drivers.Locker = (*locker)(nil)

// New dials the master (through the Sentinels when given). poolSize sizes
// the connection pool.
func New(ep redisconn.Sentinel, cfg Config, poolSize int) (*locker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var c *redis.Client
	switch {
	case len(ep.Sentinels) > 0:
		c = redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: ep.MasterName, SentinelAddrs: ep.Sentinels, Password: ep.Password, SentinelPassword: ep.Password, PoolSize: poolSize,
			MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true,
		})
	case ep.Addr != "":
		c = redis.NewClient(&redis.Options{Addr: ep.Addr, Password: ep.Password, PoolSize: poolSize, MaxRetries: -1, DisableIdentity: true, ContextTimeoutEnabled: true})
	default:
		return nil, errors.New("single: no master address and no sentinel")
	}
	return &locker{cfg: cfg, c: c}, nil
}

func token() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Lock makes one attempt: SET NX PX (+ WAIT) in one round trip.
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: 1}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	start := time.Now()
	budget := l.cfg.Redlock.NodeTimeout + l.cfg.WaitTimeout
	cctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	tok := token()
	var set *redis.BoolCmd
	var wait *redis.Cmd
	_, err := l.c.Pipelined(cctx, func(p redis.Pipeliner) error {
		set = p.SetNX(cctx, key, tok, l.cfg.Redlock.TTL)
		if l.cfg.WaitReplicas > 0 {
			wait = p.Do(cctx, "WAIT", l.cfg.WaitReplicas, l.cfg.WaitTimeout.Milliseconds())
		}
		return nil
	})
	att.Elapsed = time.Since(start)
	switch {
	case ctx.Err() != nil:
		return nil, att, fmt.Errorf("single: %w", ctx.Err())
	case err != nil && (cctx.Err() != nil || isTimeout(err)):
		att.TimedOut = 1
		return nil, att, fmt.Errorf("single: no answer in %v: %w", budget, drivers.ErrTimeout)
	case err != nil:
		att.Failed = 1
		return nil, att, fmt.Errorf("single: %w", err)
	case !set.Val():
		att.HeldByOther = 1
		return nil, att, fmt.Errorf("single: %s: %w", key, drivers.ErrBusy)
	}
	ls := &lease{l: l, key: key, tok: tok}
	if n, _ := waited(wait); n < l.cfg.WaitReplicas {
		// Not a grant: give the key back so nobody waits out its TTL.
		_ = ls.release(context.WithoutCancel(ctx))
		att.TimedOut = 1
		return nil, att, fmt.Errorf("single: %s: %d of %d replicas in %v: %w (%w)", key, n, l.cfg.WaitReplicas, l.cfg.WaitTimeout, ErrNotReplicated, drivers.ErrTimeout)
	}
	att.Validity = l.cfg.Redlock.Validity(att.Elapsed)
	if att.Validity <= 0 {
		_ = ls.release(context.WithoutCancel(ctx))
		return nil, att, fmt.Errorf("single: %s: %w", key, drivers.ErrExpired)
	}
	att.Won = 1
	ls.SetValidUntil(start.Add(att.Validity + att.Elapsed))
	return ls, att, nil
}

// isTimeout: the connection's deadline (the context's, with
// ContextTimeoutEnabled) can fire a hair before the context reports it.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// waited is WAIT's count of replicas; with no WAIT sent, as many as asked.
func waited(wait *redis.Cmd) (int, bool) {
	if wait == nil {
		return int(^uint(0) >> 1), false
	}
	n, _ := wait.Int64()
	return int(n), true
}

// Close closes the client.
func (l *locker) Close() error { return l.c.Close() }

// lease is a granted single-instance lock.
type lease struct {
	l        *locker
	key, tok string
	drivers.LeaseState
}

var _ drivers.Lease = (*lease)(nil)

func (ls *lease) release(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, ls.l.cfg.Redlock.NodeTimeout)
	defer cancel()
	n, err := releaseScript.Run(cctx, ls.l.c, []string{ls.key}, ls.tok).Int()
	if err != nil {
		return fmt.Errorf("single: unlock: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("single: %s: %w", ls.key, drivers.ErrNotHeld)
	}
	return nil
}

// Unlock deletes the key if it still holds our token.
func (ls *lease) Unlock(ctx context.Context) error { return ls.release(ctx) }

// Extend sets the key's TTL anew if it still holds our token.
func (ls *lease) Extend(ctx context.Context, ttl time.Duration) error {
	start := time.Now()
	cctx, cancel := context.WithTimeout(ctx, ls.l.cfg.Redlock.NodeTimeout)
	defer cancel()
	n, err := extendScript.Run(cctx, ls.l.c, []string{ls.key}, ls.tok, ttl.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("single: extend: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("single: %s: %w", ls.key, drivers.ErrNotHeld)
	}
	c := ls.l.cfg.Redlock
	c.TTL = ttl
	ls.SetValidUntil(start.Add(c.Validity(0)))
	return nil
}

// Fence is 0: a Redis key carries no fencing token.
func (ls *lease) Fence() uint64 { return 0 }
