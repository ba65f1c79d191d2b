// Package redsync wraps github.com/go-redsync/redsync/v4, the most used Go
// Redlock library, as a drivers.Locker over go-redis v9 clients on the same
// masters lockbench's own Redlock uses. redsync's own retry loop is switched
// off (WithTries(1)) so lockbench owns retries and sees every attempt, and
// WithFailFast(true) (unless Config.NoFailFast) returns as soon as a quorum
// either way is known.
//
// backend.go registers it as the "redsync" backend, its Config as the
// backend's settings ("redsync" in a run's JSON, --redsync-no-fail-fast).
package redsync

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	rsgoredis "github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
)

// Config is the lock's parameters, taken from the run's Redlock ones so the
// rows compare like for like.
type Config struct {
	TTL         time.Duration `json:"-"` // WithExpiry
	NodeTimeout time.Duration `json:"-"` // WithTimeoutFactor(NodeTimeout/TTL): redsync's per-attempt budget
	DriftFactor float64       `json:"-"` // WithDriftFactor
	// NoFailFast runs without WithFailFast(true), which returns as soon as
	// a quorum either way is known. redsync then releases a lost attempt
	// while its SET NX to the slower masters may still be in flight; a SET
	// NX that lands after the release leaves a key nobody owns until TTL
	// (measured: contended runs stall for a TTL). The zero value is
	// fail-fast, as users run it.
	NoFailFast bool `json:"no_fail_fast" flag:"redsync-no-fail-fast" help:"redsync: WithFailFast(false), wait for every master's answer (fail-fast can leave orphan keys until TTL)"`
}

// locker takes redsync mutexes, one redsync.Mutex per attempt (as redsync's
// users do: rs.NewMutex(name) then Lock).
type locker struct {
	rs    *redsync.Redsync
	opts  []redsync.Option
	n     int
	close func() error
}

var _ drivers.Locker = (*locker)(nil)

// New builds a Locker over clients, one per master. closeClients, if set,
// is called by Close.
func New(clients []*redis.Client, cfg Config, closeClients func() error) (*locker, error) {
	if len(clients) == 0 {
		return nil, errors.New("redsync: no masters")
	}
	if cfg.TTL <= 0 || cfg.NodeTimeout <= 0 {
		return nil, fmt.Errorf("redsync: ttl %v and node timeout %v must be positive", cfg.TTL, cfg.NodeTimeout)
	}
	pools := make([]rsredis.Pool, len(clients))
	for i, c := range clients {
		pools[i] = rsgoredis.NewPool(c)
	}
	return &locker{
		rs: redsync.New(pools...),
		opts: []redsync.Option{
			redsync.WithExpiry(cfg.TTL),
			redsync.WithTries(1),
			redsync.WithFailFast(!cfg.NoFailFast),
			redsync.WithDriftFactor(cfg.DriftFactor),
			redsync.WithTimeoutFactor(float64(cfg.NodeTimeout) / float64(cfg.TTL)),
		},
		n:     len(clients),
		close: closeClients,
	}, nil
}

// Lock makes one redsync attempt (LockContext with one try).
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: l.n}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	m := l.rs.NewMutex(key, l.opts...)
	start := time.Now()
	err := m.LockContext(ctx)
	att.Elapsed = time.Since(start)
	if err == nil {
		att.Won = l.n/2 + 1 // fail-fast stops counting at a quorum
		att.Validity = time.Until(m.Until())
		return &lease{m: m}, att, nil
	}
	tally(&att, err)
	if ctx.Err() != nil {
		return nil, att, fmt.Errorf("redsync: %w (%v)", ctx.Err(), err)
	}
	return nil, att, sentinel(err)
}

// sentinel maps a failed redsync attempt to the drivers vocabulary.
func sentinel(err error) error {
	var taken *redsync.ErrTaken
	switch {
	case errors.As(err, &taken):
		return fmt.Errorf("redsync: %w: %v", drivers.ErrBusy, err)
	case errors.Is(err, redsync.ErrFailed):
		// One try, no per-node error: a quorum was won but the validity
		// left was not positive.
		return fmt.Errorf("redsync: %w: %v", drivers.ErrExpired, err)
	}
	return fmt.Errorf("redsync: %w: %v", drivers.ErrNoQuorum, err)
}

// tally reads the per-node outcome out of redsync's error: ErrTaken lists
// the nodes that held the key; otherwise a joined error carries one
// ErrNodeTaken or RedisError per node that did not grant.
func tally(att *drivers.Attempt, err error) {
	var taken *redsync.ErrTaken
	if errors.As(err, &taken) {
		att.HeldByOther = len(taken.Nodes)
		return
	}
	var walk func(error)
	walk = func(err error) {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		var nt *redsync.ErrNodeTaken
		var re *redsync.RedisError
		switch {
		case errors.As(err, &nt):
			att.HeldByOther++
		case errors.As(err, &re) && isTimeout(re.Err):
			att.TimedOut++
		case errors.As(err, &re):
			att.Failed++
		}
	}
	walk(err)
	if o := att.HeldByOther + att.Failed + att.TimedOut; o > 0 && o < att.Masters {
		att.Won = att.Masters - o // the nodes that said nothing against us granted
	}
}

// Close closes the masters' clients.
func (l *locker) Close() error {
	if l.close == nil {
		return nil
	}
	return l.close()
}

type lease struct{ m *redsync.Mutex }

func (ls *lease) Unlock(ctx context.Context) error {
	ok, err := ls.m.UnlockContext(ctx)
	if !ok {
		if err == nil || errors.Is(err, redsync.ErrLockAlreadyExpired) || !hasRedisError(err) {
			return fmt.Errorf("redsync: unlock: %w", drivers.ErrNotHeld)
		}
		return fmt.Errorf("redsync: unlock: %w", err)
	}
	return nil
}

// Extend resets the expiry to the mutex's own (redsync has no per-call TTL).
func (ls *lease) Extend(ctx context.Context, _ time.Duration) error {
	ok, err := ls.m.ExtendContext(ctx)
	if !ok {
		if hasRedisError(err) {
			return fmt.Errorf("redsync: extend: %w", err)
		}
		return fmt.Errorf("redsync: extend: %w (%v)", drivers.ErrNotHeld, err)
	}
	return nil
}

func (ls *lease) ValidUntil() time.Time { return ls.m.Until() }
func (ls *lease) Fence() uint64         { return 0 }

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func hasRedisError(err error) bool {
	var re *redsync.RedisError
	return errors.As(err, &re)
}
