// Package rueidislock wraps github.com/redis/rueidis/rueidislock as a
// drivers.Locker, run as its README intends: one rueidis client on one Redis
// endpoint, KeyMajority keys of the lock name on it (1 for a single
// instance, as the README advises), locks auto-extended in the background
// and watched through client-side caching. It is not Redlock over N masters:
// its row answers "what does the library I already use cost".
//
// backend.go registers it as the "rueidislock" backend.
package rueidislock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// clientOption is the master's address, credentials and TLS (rueidis's
// own ParseURL), one attempt per command.
func clientOption(m redisconn.Endpoint) rueidis.ClientOption {
	o := m.Rueidis()
	o.DisableRetry = true
	return o
}

// Config is the library's options lockbench sets.
type Config struct {
	Master      redisconn.Endpoint // the one Redis endpoint
	TTL         time.Duration      // KeyValidity; extended every TTL/2
	KeyMajority int32              // keys to win out of KeyMajority*2-1; default 1
}

// locker takes rueidislock locks. One attempt is TryWithContext: it does
// not wait for the holder.
type locker struct {
	lk  rueidislock.Locker
	cfg Config
}

var _ drivers.Locker = (*locker)(nil)

// New dials cfg.Master.
func New(cfg Config) (*locker, error) {
	if cfg.KeyMajority == 0 {
		cfg.KeyMajority = 1
	}
	if cfg.TTL <= 0 {
		return nil, fmt.Errorf("rueidislock: ttl %v must be positive", cfg.TTL)
	}
	lk, err := rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption:   clientOption(cfg.Master),
		KeyPrefix:      "lockbench-rueidislock",
		KeyValidity:    cfg.TTL,
		KeyMajority:    cfg.KeyMajority,
		NoLoopTracking: true, // Redis >= 7.0.5, as the README advises
	})
	if err != nil {
		return nil, fmt.Errorf("rueidislock: dial %s: %w", cfg.Master, err)
	}
	return &locker{lk: lk, cfg: cfg}, nil
}

// Lock makes one TryWithContext attempt. The lock outlives the call: it is
// held until Unlock (or until rueidislock sees it lost), so it does not
// run under ctx's cancellation.
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	att := drivers.Attempt{Masters: 1}
	if err := ctx.Err(); err != nil {
		return nil, att, err
	}
	start := time.Now()
	lctx, cancel, err := l.lk.TryWithContext(context.WithoutCancel(ctx), key)
	att.Elapsed = time.Since(start)
	if err == nil {
		ls := &lease{ctx: lctx, cancel: cancel, ttl: l.cfg.TTL, validUntil: start.Add(l.cfg.TTL)}
		att.Won, att.Validity = 1, time.Until(ls.validUntil)
		return ls, att, nil
	}
	if ctx.Err() != nil {
		return nil, att, fmt.Errorf("rueidislock: %w (%v)", ctx.Err(), err)
	}
	if errors.Is(err, rueidislock.ErrNotLocked) {
		att.HeldByOther = 1
		return nil, att, fmt.Errorf("rueidislock: %w: %v", drivers.ErrBusy, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		// The try's own deadline ran out (rueidislock bounds a key's
		// command by TryNextAfter, 20 ms, and the whole try by the key's
		// validity): the master did not answer in time.
		att.TimedOut = 1
		return nil, att, fmt.Errorf("rueidislock: no answer in time: %w (%v)", drivers.ErrTimeout, err)
	}
	att.Failed = 1
	return nil, att, fmt.Errorf("rueidislock: %w", err)
}

// Close closes the client; held locks are released by their keys' expiry.
func (l *locker) Close() error {
	l.lk.Close()
	return nil
}

type lease struct {
	ctx    context.Context // canceled by rueidislock once the lock is lost
	cancel context.CancelFunc
	ttl    time.Duration

	mu         sync.Mutex
	validUntil time.Time
	released   bool
}

// Unlock cancels the lock's context, which deletes its keys and returns
// once they are gone. ctx cannot bound it: the library gives no handle.
func (ls *lease) Unlock(_ context.Context) error {
	ls.mu.Lock()
	if ls.released {
		ls.mu.Unlock()
		return fmt.Errorf("rueidislock: unlock twice: %w", drivers.ErrNotHeld)
	}
	ls.released = true
	ls.mu.Unlock()
	lost := ls.ctx.Err() != nil
	ls.cancel()
	if lost {
		return fmt.Errorf("rueidislock: lock lost before unlock: %w", drivers.ErrNotHeld)
	}
	return nil
}

// Extend: rueidislock extends held locks itself every TTL/2, so there is no
// call to make; Extend checks the lock is still held and moves ValidUntil
// to what the background extension guarantees (now + TTL/2).
func (ls *lease) Extend(_ context.Context, _ time.Duration) error {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.released || ls.ctx.Err() != nil {
		return fmt.Errorf("rueidislock: extend: %w", drivers.ErrNotHeld)
	}
	if v := time.Now().Add(ls.ttl / 2); v.After(ls.validUntil) {
		ls.validUntil = v
	}
	return nil
}

func (ls *lease) ValidUntil() time.Time {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.validUntil
}

func (ls *lease) Fence() uint64 { return 0 }
