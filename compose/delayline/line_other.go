//go:build !linux

package delayline

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// Line relays every pair until Close: where there is no epoll, a
// goroutine per direction of each connection (see pipe).
type Line struct {
	paths []*path
	wg    sync.WaitGroup

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// path is one pair's listener and its two directions' delays.
type path struct {
	ln       net.Listener
	target   string
	up, down delay // client→target, target→client
}

// Listen opens every pair's listener; Serve then relays.
func Listen(pairs []Pair) (*Line, error) {
	l := &Line{conns: map[net.Conn]struct{}{}}
	for _, p := range pairs {
		ln, err := net.Listen("tcp", p.Listen)
		if err != nil {
			_ = l.Close()
			return nil, fmt.Errorf("delay line: listen %s: %w", p.Listen, err)
		}
		pa := &path{ln: ln, target: p.Target}
		l.paths = append(l.paths, pa)
		up, down := p.Legs()
		if err := l.Set(len(l.paths)-1, up, down); err != nil {
			_ = l.Close()
			return nil, err
		}
	}
	return l, nil
}

// Addrs are the listeners' addresses, in the pairs' order.
func (l *Line) Addrs() []string {
	out := make([]string, len(l.paths))
	for i, p := range l.paths {
		out[i] = p.ln.Addr().String()
	}
	return out
}

// Set changes path i's (0-based) delays: up on requests, down on
// replies. Chunks already in flight keep the delay they were given.
func (l *Line) Set(i int, up, down Leg) error {
	if err := checkSet(i, len(l.paths), up, down); err != nil {
		return err
	}
	p := l.paths[i]
	p.up.set(up)
	p.down.set(down)
	return nil
}

// Serve accepts and relays on every path until ctx ends or Close.
func (l *Line) Serve(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() { _ = l.Close() })
	defer stop()
	var acc sync.WaitGroup
	for _, p := range l.paths {
		acc.Add(1)
		go func() {
			defer acc.Done()
			l.accept(p)
		}()
	}
	acc.Wait()
	l.wg.Wait()
}

func (l *Line) accept(p *path) {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond) // out of descriptors: let some close
			continue
		}
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			l.relay(p, c)
		}()
	}
}

// relay carries one client connection both ways until both directions end.
func (l *Line) relay(p *path, c net.Conn) {
	t, err := net.DialTimeout("tcp", p.target, dialTimeout)
	if err != nil {
		_ = c.Close()
		return
	}
	for _, x := range []net.Conn{c, t} {
		if tc, ok := x.(*net.TCPConn); ok {
			_ = tc.SetNoDelay(true)
		}
	}
	if !l.track(c, t) {
		_ = c.Close()
		_ = t.Close()
		return
	}
	defer l.untrack(c, t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pipe(c, t, &p.up)
	}()
	pipe(t, c, &p.down)
	<-done
	_ = c.Close()
	_ = t.Close()
}

func (l *Line) track(cs ...net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	for _, c := range cs {
		l.conns[c] = struct{}{}
	}
	return true
}

func (l *Line) untrack(cs ...net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range cs {
		delete(l.conns, c)
	}
}

// Close stops the listeners and drops every connection.
func (l *Line) Close() error {
	l.mu.Lock()
	l.closed = true
	conns := l.conns
	l.conns = map[net.Conn]struct{}{}
	l.mu.Unlock()
	for _, p := range l.paths {
		_ = p.ln.Close()
	}
	for c := range conns {
		_ = c.Close()
	}
	return nil
}
