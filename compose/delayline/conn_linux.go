package delayline

import (
	"golang.org/x/sys/unix"
)

// accept takes every connection waiting on p and dials p's target for
// each.
func (l *Line) accept(p *path, now int64) {
	for {
		fd, _, err := unix.Accept4(p.lfd, unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC)
		switch err {
		case nil:
			l.open(p, fd, now)
		case unix.EINTR, unix.ECONNABORTED:
		case unix.EMFILE, unix.ENFILE, unix.ENOBUFS, unix.ENOMEM: // out of descriptors: let some close
			if l.ctl(unix.EPOLL_CTL_DEL, p.lfd, 0, 0, 0) == nil {
				p.paused = true
				l.paused++
			}
			return
		default:
			return
		}
	}
}

// open starts relaying the client connection cfd: it dials the target
// and reads from the client once the dial completes.
func (l *Line) open(p *path, cfd int, now int64) {
	tfd, err := unix.Socket(p.family, unix.SOCK_STREAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		_ = unix.Close(cfd)
		return
	}
	c := &conn{client: sock{fd: cfd}, target: sock{fd: tfd}}
	c.up = dir{c: c, from: &c.client, to: &c.target, delay: &p.up, hi: -1}
	c.down = dir{c: c, from: &c.target, to: &c.client, delay: &p.down, hi: -1}
	l.gen = (l.gen + 1) & 0xffffff
	c.gen = l.gen
	if n := len(l.free); n > 0 {
		c.slot, l.free = l.free[n-1], l.free[:n-1]
		l.conns[c.slot] = c
	} else {
		c.slot = int32(len(l.conns))
		l.conns = append(l.conns, c)
	}
	_ = unix.SetsockoptInt(cfd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	switch err := unix.Connect(tfd, p.target); err {
	case nil:
		l.dialed(c)
	case unix.EINPROGRESS, unix.EINTR:
		c.dialing, c.deadline = true, now+int64(dialTimeout)
		l.dials++
		l.watch(c)
	default:
		l.drop(c)
	}
}

// dialed completes c's dial to its target, or drops c if it failed.
func (l *Line) dialed(c *conn) {
	if c.dialing {
		c.dialing = false
		l.dials--
	}
	if e, err := unix.GetsockoptInt(c.target.fd, unix.SOL_SOCKET, unix.SO_ERROR); err != nil || e != 0 {
		l.drop(c)
		return
	}
	_ = unix.SetsockoptInt(c.target.fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	l.watch(c)
}

// drop closes both sides of c (closing unregisters them) with whatever
// was in flight.
func (l *Line) drop(c *conn) {
	l.heap.remove(&c.up)
	l.heap.remove(&c.down)
	_ = unix.Close(c.client.fd)
	_ = unix.Close(c.target.fd)
	if c.dialing {
		l.dials--
	}
	l.conns[c.slot] = nil
	l.free = append(l.free, c.slot)
}

// sweep drops dials past dialTimeout and resumes paused listeners.
func (l *Line) sweep(now int64) {
	if l.dials > 0 {
		for _, c := range l.conns {
			if c != nil && c.dialing && now >= c.deadline {
				l.drop(c)
			}
		}
	}
	for i, p := range l.paths {
		if p.paused && l.ctl(unix.EPOLL_CTL_ADD, p.lfd, unix.EPOLLIN, int32(i), evListen) == nil {
			p.paused = false
			l.paused--
		}
	}
}
