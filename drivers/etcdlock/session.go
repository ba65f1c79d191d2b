package etcdlock

import (
	"context"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// session is one lease and the concurrency.Session over it. A Locker hands
// a session to one attempt at a time and takes it back when the attempt
// fails or its lease is unlocked. Workers hold at most one lease each, so
// the pool settles at one session per worker, each reused cycle after cycle:
// what a service does with one session per process or goroutine, without
// changing drivers.Locker.
type session struct {
	s       *concurrency.Session
	ttl     time.Duration // granted by the server (it may raise the TTL we asked)
	granted time.Time     // when the Grant was sent: the lease lives at least ttl from here
	reused  bool          // handed out before
}

func (s *session) lease() clientv3.LeaseID { return s.s.Lease() }

// expired reports a kept-alive session whose lease was lost.
func (s *session) expired() bool {
	select {
	case <-s.s.Done():
		return true
	default:
		return false
	}
}

// pool holds the idle sessions of one Locker.
type pool struct {
	cli *clientv3.Client
	cfg Config
	// bg lives as long as the Locker: kept-alive sessions refresh under it.
	bg context.Context

	mu     sync.Mutex
	idle   []*session
	closed bool
	async  sync.WaitGroup // background revokes, awaited by close
}

// stopped is a canceled context: a Session built on it sends no
// keep-alives, so its lease lives TTL like a Redlock key.
var stopped = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// get hands out an idle session or grants a new lease.
func (p *pool) get(ctx context.Context) (*session, error) {
	p.mu.Lock()
	for len(p.idle) > 0 {
		s := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if s.expired() {
			p.discard(s)
			continue
		}
		p.mu.Unlock()
		s.reused = true
		return s, nil
	}
	p.mu.Unlock()
	return p.grant(ctx)
}

func (p *pool) grant(ctx context.Context) (*session, error) {
	start := time.Now()
	g, err := p.cli.Grant(ctx, p.cfg.TTLSeconds())
	if err != nil {
		return nil, err
	}
	kactx := stopped
	if p.cfg.KeepAlive {
		kactx = p.bg
	}
	cs, err := concurrency.NewSession(p.cli, concurrency.WithLease(g.ID), concurrency.WithContext(kactx))
	if err != nil {
		_, _ = p.cli.Revoke(context.WithoutCancel(ctx), g.ID)
		return nil, err
	}
	return &session{s: cs, ttl: time.Duration(g.TTL) * time.Second, granted: start}, nil
}

// put takes a session back after a failed attempt or an unlock; with
// per-cycle sessions it is revoked instead (ctx bounds the Revoke).
func (p *pool) put(ctx context.Context, s *session) error {
	if p.cfg.perCycle() {
		_, err := p.cli.Revoke(ctx, s.lease())
		s.s.Orphan()
		return err
	}
	p.mu.Lock()
	if !p.closed && !s.expired() {
		p.idle = append(p.idle, s)
		p.mu.Unlock()
		return nil
	}
	p.mu.Unlock()
	p.revoke(s)
	return nil
}

// discard retires a session whose state is unknown (an attempt failed
// mid-way): revoking the lease deletes whatever key it may have left.
func (p *pool) discard(s *session) {
	p.async.Add(1)
	go func() { defer p.async.Done(); p.revoke(s) }()
}

func (p *pool) revoke(s *session) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.s.Orphan()
	_, _ = p.cli.Revoke(ctx, s.lease())
}

// close revokes every idle session.
func (p *pool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range idle {
		wg.Add(1)
		go func() { defer wg.Done(); p.revoke(s) }()
	}
	wg.Wait()
	p.async.Wait()
}
