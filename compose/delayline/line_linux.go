package delayline

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Line relays every pair until Close: one event loop on one thread (see
// run), the sockets its own (non-blocking, outside the Go runtime's
// poller), so a relayed chunk costs its read, its share of a write and
// no goroutine, timer or allocation.
type Line struct {
	paths []*path
	ep    int // epoll instance
	timer int // timerfd, armed for the earliest due delivery
	wake  int // eventfd: Close wakes the loop

	loop // owned by the goroutine in Serve

	mu      sync.Mutex
	serving bool
	closed  bool
	done    chan struct{} // closed when Serve's loop has ended
	tid     int           // the loop's thread, once it runs
}

// path is one pair's listener, its target and its two directions' delays.
type path struct {
	lfd      int
	addr     string
	family   int
	target   unix.Sockaddr
	up, down delay // client→target, target→client
	paused   bool  // out of descriptors: not accepting until the next sweep
}

// Listen opens every pair's listener; Serve then relays.
func Listen(pairs []Pair) (*Line, error) {
	l := &Line{ep: -1, timer: -1, wake: -1, done: make(chan struct{})}
	l.loop.init()
	fail := func(err error) (*Line, error) {
		l.closeFDs()
		return nil, err
	}
	var err error
	if l.ep, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return fail(fmt.Errorf("delay line: epoll: %w", err))
	}
	if l.timer, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC); err != nil {
		return fail(fmt.Errorf("delay line: timerfd: %w", err))
	}
	if l.wake, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		return fail(fmt.Errorf("delay line: eventfd: %w", err))
	}
	for fd, kind := range map[int]uint32{l.timer: evTimer, l.wake: evWake} {
		if err := l.ctl(unix.EPOLL_CTL_ADD, fd, unix.EPOLLIN, 0, kind); err != nil {
			return fail(fmt.Errorf("delay line: epoll: %w", err))
		}
	}
	for i, p := range pairs {
		pa, err := listenPath(p)
		if err != nil {
			return fail(err)
		}
		l.paths = append(l.paths, pa)
		if err := l.ctl(unix.EPOLL_CTL_ADD, pa.lfd, unix.EPOLLIN, int32(i), evListen); err != nil {
			return fail(fmt.Errorf("delay line: epoll: %w", err))
		}
		up, down := p.Legs()
		if err := l.Set(i, up, down); err != nil {
			return fail(err)
		}
	}
	return l, nil
}

// listenPath opens p's listener as a non-blocking descriptor of the
// line's own and resolves its target once.
func listenPath(p Pair) (*path, error) {
	ta, err := net.ResolveTCPAddr("tcp", p.Target)
	if err != nil {
		return nil, fmt.Errorf("delay line: target %s: %w", p.Target, err)
	}
	ln, err := net.Listen("tcp", p.Listen)
	if err != nil {
		return nil, fmt.Errorf("delay line: listen %s: %w", p.Listen, err)
	}
	defer ln.Close()
	rc, err := ln.(*net.TCPListener).SyscallConn()
	if err != nil {
		return nil, fmt.Errorf("delay line: listen %s: %w", p.Listen, err)
	}
	fd := -1
	cerr := rc.Control(func(s uintptr) { fd, err = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) })
	if err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("delay line: listen %s: %w", p.Listen, err)
	}
	pa := &path{lfd: fd, addr: ln.Addr().String()}
	pa.family, pa.target = sockaddr(ta)
	return pa, nil
}

// sockaddr is a's address family and socket address.
func sockaddr(a *net.TCPAddr) (int, unix.Sockaddr) {
	if ip4 := a.IP.To4(); ip4 != nil || a.IP == nil {
		sa := &unix.SockaddrInet4{Port: a.Port}
		copy(sa.Addr[:], ip4)
		return unix.AF_INET, sa
	}
	sa := &unix.SockaddrInet6{Port: a.Port}
	copy(sa.Addr[:], a.IP.To16())
	if ifi, err := net.InterfaceByName(a.Zone); a.Zone != "" && err == nil {
		sa.ZoneId = uint32(ifi.Index)
	}
	return unix.AF_INET6, sa
}

// Addrs are the listeners' addresses, in the pairs' order.
func (l *Line) Addrs() []string {
	out := make([]string, len(l.paths))
	for i, p := range l.paths {
		out[i] = p.addr
	}
	return out
}

// Set changes path i's (0-based) delays: up on requests, down on
// replies. Chunks already in flight keep the delay they were given.
func (l *Line) Set(i int, up, down Leg) error {
	if err := checkSet(i, len(l.paths), up, down); err != nil {
		return err
	}
	l.paths[i].up.set(up)
	l.paths[i].down.set(down)
	return nil
}

// Serve accepts and relays on every path until ctx ends or Close.
func (l *Line) Serve(ctx context.Context) {
	l.mu.Lock()
	if l.closed || l.serving {
		l.mu.Unlock()
		return
	}
	l.serving = true
	l.mu.Unlock()
	stop := context.AfterFunc(ctx, func() { _ = l.Close() })
	defer stop()
	defer close(l.done)
	// The loop keeps its thread, whose priority it raises: the thread ends
	// with the loop (never unlocked), so no other goroutine inherits it.
	runtime.LockOSThread()
	_ = raisePriority()
	l.mu.Lock()
	l.tid = unix.Gettid()
	l.mu.Unlock()
	l.run()
	l.mu.Lock()
	l.closed = true
	l.closeFDs()
	l.mu.Unlock()
}

// Close stops the listeners and drops every connection, with whatever
// was in flight on them; it returns once the loop has ended.
func (l *Line) Close() error {
	l.mu.Lock()
	first, serving := !l.closed, l.serving
	l.closed = true
	if first && serving {
		one := [8]byte{1} // an eventfd counts in native (little-endian) order
		_, _ = unix.Write(l.wake, one[:])
	} else if first {
		l.closeFDs()
	}
	l.mu.Unlock()
	if serving {
		<-l.done
	}
	return nil
}

// closeFDs closes every descriptor the line holds.
func (l *Line) closeFDs() {
	for _, c := range l.conns {
		if c != nil {
			_ = unix.Close(c.client.fd)
			_ = unix.Close(c.target.fd)
		}
	}
	l.conns = nil
	for _, p := range l.paths {
		_ = unix.Close(p.lfd)
	}
	for _, fd := range []int{l.ep, l.timer, l.wake} {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
	}
}

// ctl registers (or changes, or drops) fd's events with the loop's epoll;
// slot and kind come back with each event.
func (l *Line) ctl(op, fd int, events uint32, slot int32, kind uint32) error {
	ev := unix.EpollEvent{Events: events, Fd: slot, Pad: int32(kind)}
	return unix.EpollCtl(l.ep, op, fd, &ev)
}

// now is the loop's clock: monotonic nanoseconds since the line was
// made (never 0: 0 is "no time" to arm).
func (l *Line) now() int64 { return 1 + int64(time.Since(l.base)) }
