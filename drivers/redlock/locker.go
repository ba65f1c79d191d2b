// Package redlock is the Redlock algorithm, written once over a
// multiplex.Strategy: SET NX PX with a random token on N independent masters,
// a majority quorum, validity = ttl − elapsed − drift, release everywhere on
// failure, compare-and-delete release and compare-and-extend.
package redlock

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/multiplex"
)

// MaxMasters bounds N: a lease remembers its granting masters in a bitmask.
const MaxMasters = 64

// locker runs Redlock over the masters its strategy reaches.
type locker struct {
	mux    multiplex.Strategy
	cfg    Config
	quorum int
	closer func() error // closes the masters' clients, if the Locker owns them
	errs   *drivers.ErrorLog
	// replies are reply slices of N, one per Broadcast in flight: a cycle
	// allocates none.
	replies sync.Pool
}

var _ drivers.Locker = (*locker)(nil)

// New builds a Locker over mux. closer, if not nil, is called by Close after
// the strategy is closed (typically it closes the adapters' clients).
func New(mux multiplex.Strategy, cfg Config, closer func() error) (*locker, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if mux.N() > MaxMasters {
		return nil, fmt.Errorf("masters %d: redlock supports at most %d", mux.N(), MaxMasters)
	}
	l := &locker{mux: mux, cfg: cfg, quorum: quorumOf(mux.N()), closer: closer, errs: drivers.NewErrorLog(mux.N())}
	l.errs.SetTimeout(cfg.NodeTimeout, "node timeout")
	n := mux.N()
	l.replies.New = func() any { r := make([]multiplex.Reply, n); return &r }
	return l, nil
}

// getReplies borrows a reply slice of N; putReplies returns it.
func (l *locker) getReplies() *[]multiplex.Reply { return l.replies.Get().(*[]multiplex.Reply) }

func (l *locker) putReplies(r *[]multiplex.Reply) {
	clear(*r) // drop the errors' references
	l.replies.Put(r)
}

// Config returns the parameters the Locker runs with.
func (l *locker) Config() Config { return l.cfg }

// Lock makes one Redlock acquire attempt on key.
func (l *locker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	token, err := newToken()
	if err != nil {
		return nil, drivers.Attempt{}, err
	}
	rp := l.getReplies()
	defer l.putReplies(rp)
	out := *rp
	start := time.Now()
	l.mux.Broadcast(ctx, multiplex.Cmd{Kind: multiplex.Acquire, Key: key, Token: token, TTL: l.cfg.TTL, Timeout: l.cfg.NodeTimeout}, out)
	l.observe(ctx, out)
	a := tally(out)
	a.Elapsed = time.Since(start)
	a.Validity = l.cfg.Validity(a.Elapsed)
	if a.Won >= l.quorum && a.Validity > 0 {
		return &lease{l: l, key: key, token: token, validUntil: start.Add(l.cfg.TTL - l.cfg.Drift()), wonMask: wonMask(out), grants: a.Won}, a, nil
	}
	// Not acquired: release on every master, including those that refused or
	// failed (a SET may have landed after its timeout). The run may be ending,
	// so the rollback outlives ctx, bounded by the per-master timeout.
	l.mux.Broadcast(context.WithoutCancel(ctx), multiplex.Cmd{Kind: multiplex.Release, Key: key, Token: token, Timeout: l.cfg.NodeTimeout}, out)
	l.observe(ctx, out)
	return nil, a, l.failure(ctx, a)
}

// failure names why an attempt with tally a did not acquire.
func (l *locker) failure(ctx context.Context, a drivers.Attempt) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	switch {
	case a.Won >= l.quorum:
		return fmt.Errorf("%w: %d/%d masters in %v, validity %v", drivers.ErrExpired, a.Won, a.Masters, a.Elapsed, a.Validity)
	case a.HeldByOther >= l.quorum:
		return fmt.Errorf("%w: %d/%d masters", drivers.ErrBusy, a.HeldByOther, a.Masters)
	case a.TimedOut > a.Masters-l.quorum && a.Failed == 0:
		return fmt.Errorf("%w: %d/%d masters", drivers.ErrTimeout, a.TimedOut, a.Masters)
	}
	return fmt.Errorf("%w: won %d, held by other %d, failed %d, timed out %d of %d",
		drivers.ErrNoQuorum, a.Won, a.HeldByOther, a.Failed, a.TimedOut, a.Masters)
}

// Close closes the strategy and, if owned, the masters' clients, within
// drivers.CloseBudget: rueidis' Close waits for pending calls, which a
// frozen master never answers.
func (l *locker) Close() error {
	return drivers.CloseWithin("redlock", func() error {
		err := l.mux.Close()
		if l.closer != nil {
			if cerr := l.closer(); err == nil {
				err = cerr
			}
		}
		return err
	})
}

// Errors lists, per master that had any, the most frequent error messages
// of its commands with counts and whether it was still failing
// (drivers.ErrorReporter).
func (l *locker) Errors() []drivers.MasterReport { return l.errs.Report() }

// observe notes in the error log which masters answered and which failed.
// Replies cut short because the run is ending, and the releases made after
// it ended (drivers.ShuttingDown), are not failures of the run.
func (l *locker) observe(ctx context.Context, out []multiplex.Reply) {
	for i, r := range out {
		switch r.Status {
		case multiplex.OK, multiplex.Refused:
			l.errs.Answered(i)
		default:
			if !drivers.IsShutdown(ctx) {
				l.errs.Failed(i, r.Err)
			}
		}
	}
}

// wonMask marks the masters that answered OK.
func wonMask(out []multiplex.Reply) uint64 {
	var m uint64
	for i, r := range out {
		if r.Status == multiplex.OK {
			m |= 1 << uint(i)
		}
	}
	return m
}

func tally(out []multiplex.Reply) drivers.Attempt {
	a := drivers.Attempt{Masters: len(out)}
	for _, r := range out {
		switch r.Status {
		case multiplex.OK:
			a.Won++
		case multiplex.Refused:
			a.HeldByOther++
		case multiplex.TimedOut:
			a.TimedOut++
		default:
			a.Failed++
		}
	}
	return a
}

// newToken is 20 random bytes from crypto/rand, base64url-encoded: unique
// across all clients for the lock's lifetime.
func newToken() (string, error) {
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("redlock: token: %w", err)
	}
	var enc [27]byte // base64.RawURLEncoding.EncodedLen(20)
	base64.RawURLEncoding.Encode(enc[:], b[:])
	return string(enc[:]), nil // the token's one allocation
}
