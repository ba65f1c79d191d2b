package redlock

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/multiplex"
)

// lease is a granted Redlock lock. It belongs to one goroutine.
type lease struct {
	l          *locker
	key, token string
	validUntil time.Time
	wonMask    uint64 // masters that granted the lock (bit i = master i)
	grants     int
}

var _ drivers.Lease = (*lease)(nil)

func (s *lease) ValidUntil() time.Time { return s.validUntil }
func (s *lease) Fence() uint64         { return 0 }

// Unlock runs compare-and-delete on every master. Masters that never granted
// this lease answer "not ours", which says nothing; what counts is how the
// masters that did grant it answer. Unlock fails with ErrNotHeld when so many
// of those no longer held our token that no quorum did (the lock had expired
// or a master restarted empty), and with the masters' error when failures or
// timeouts left the outcome unknown.
func (s *lease) Unlock(ctx context.Context) error {
	rp := s.l.getReplies()
	defer s.l.putReplies(rp)
	out := *rp
	s.l.mux.Broadcast(ctx, multiplex.Cmd{Kind: multiplex.Release, Key: s.key, Token: s.token, Timeout: s.l.cfg.NodeTimeout}, out)
	s.l.observe(ctx, out)
	released, lost := 0, 0
	for i, r := range out {
		switch {
		case r.Status == multiplex.OK:
			released++
		case r.Status == multiplex.Refused && s.granted(i):
			lost++
		}
	}
	switch {
	case released >= s.l.quorum:
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case s.grants-lost < s.l.quorum:
		return fmt.Errorf("%w: released on %d/%d masters, %d of its %d grants gone", drivers.ErrNotHeld, released, len(out), lost, s.grants)
	}
	a := tally(out)
	return fmt.Errorf("redlock: release: %d/%d masters failed, %d timed out: %w", a.Failed, a.Masters, a.TimedOut, firstErr(out))
}

func (s *lease) granted(i int) bool { return s.wonMask&(1<<uint(i)) != 0 }

// Extend runs compare-and-PEXPIRE on every master. It succeeds only when a
// quorum extended while the current validity had not yet run out; then the
// validity restarts from this call.
func (s *lease) Extend(ctx context.Context, ttl time.Duration) error {
	if ttl <= 0 {
		return fmt.Errorf("redlock: extend: ttl %v must be positive", ttl)
	}
	rp := s.l.getReplies()
	defer s.l.putReplies(rp)
	out := *rp
	start := time.Now()
	s.l.mux.Broadcast(ctx, multiplex.Cmd{Kind: multiplex.Extend, Key: s.key, Token: s.token, TTL: ttl, Timeout: s.l.cfg.NodeTimeout}, out)
	end := time.Now()
	s.l.observe(ctx, out)
	a := tally(out)
	if a.Won < s.l.quorum {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fmt.Errorf("%w: extended on %d/%d masters", drivers.ErrNotHeld, a.Won, a.Masters)
	}
	if !end.Before(s.validUntil) {
		return fmt.Errorf("%w: extend answered %v after validity ended", drivers.ErrNotHeld, end.Sub(s.validUntil))
	}
	cfg := s.l.cfg
	cfg.TTL = ttl
	s.validUntil = start.Add(ttl - cfg.Drift())
	return nil
}

func firstErr(out []multiplex.Reply) error {
	for _, r := range out {
		if r.Err != nil {
			return r.Err
		}
	}
	return fmt.Errorf("no error reported")
}
