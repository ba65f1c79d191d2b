package delayline

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Pair is one delayed path: clients dial Listen, the line dials Target
// for each of them.
type Pair struct {
	Listen string // host:port; port 0 picks a free one
	Target string
	Distance
}

// ParsePair parses "LISTEN=TARGET[@RTT[±JITTER]]"; without @, the round
// trip is def.
func ParsePair(s string, def Distance) (Pair, error) {
	l, rest, ok := strings.Cut(s, "=")
	if !ok || l == "" || rest == "" {
		return Pair{}, fmt.Errorf("pair %q: want LISTEN=TARGET[@RTT[±JITTER]]", s)
	}
	p := Pair{Listen: l, Target: rest, Distance: def}
	// Once its round trip is read, the pair is named LISTEN=TARGET, the
	// round trip apart: a word holding '@' reads as credentials to the
	// output's redaction, which masks it. Before, it is quoted whole, so
	// that credentials typed into it (user:pw@host) are masked.
	if t, d, ok := strings.Cut(rest, "@"); ok {
		dist, err := ParseDistance(d)
		if err != nil {
			return Pair{}, fmt.Errorf("pair %q: %w (the round trip follows the target's @)", s, err)
		}
		p.Target, p.Distance = t, dist
	}
	name := p.Listen + "=" + p.Target
	if err := checkAddr(p.Listen, true); err != nil {
		return Pair{}, fmt.Errorf("pair %s: LISTEN %w", name, err)
	}
	if err := checkAddr(p.Target, false); err != nil {
		return Pair{}, fmt.Errorf("pair %s: TARGET %w", name, err)
	}
	if err := p.Distance.Check(); err != nil {
		return Pair{}, fmt.Errorf("pair %s: %w", name, err)
	}
	return p, nil
}

// checkAddr checks a host:port; a port of 0 only where the line listens
// (zero picks a free one).
func checkAddr(a string, listen bool) error {
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return fmt.Errorf("%q: want host:port", a)
	}
	n, err := strconv.Atoi(port)
	low := 1
	if listen {
		low = 0
	}
	if err != nil || n < low || n > 65535 {
		return fmt.Errorf("%q: port %q: want %d to 65535", a, port, low)
	}
	if host == "" && !listen {
		return fmt.Errorf("%q: no host", a)
	}
	return nil
}

// String is the pair as ParsePair reads it.
func (p Pair) String() string { return p.Listen + "=" + p.Target + "@" + p.Distance.String() }

// dialTimeout bounds the line's dial of a target for one client
// connection; the client then sees its connection closed.
const dialTimeout = 5 * time.Second

// Line relays every pair until Close.
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
	if i < 0 || i >= len(l.paths) {
		return fmt.Errorf("delay line: path %d: have %d", i+1, len(l.paths))
	}
	for _, g := range []Leg{up, down} {
		if g.Delay < 0 || g.Jitter < 0 {
			return fmt.Errorf("delay line: path %d: negative delay %v±%v", i+1, g.Delay, g.Jitter)
		}
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
