package delayline

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// What an epoll event is about: its Pad's low byte (the rest is the
// connection's generation, so an event for a connection dropped earlier
// in the same batch is ignored); its Fd is the connection's slot or the
// path's index.
const (
	evClient = iota // a connection's client side
	evTarget        // its target side
	evListen
	evTimer
	evWake
)

// sweepEvery is how often the loop looks for dials past dialTimeout and
// listeners to resume, while there are any.
const sweepEvery = 10 * time.Millisecond

// loop is the event loop's state; only the loop's goroutine touches it.
type loop struct {
	conns   []*conn // by slot; nil: free
	free    []int32
	gen     uint32
	heap    dueHeap // directions with chunks waiting for their due time
	armed   int64   // the timerfd's expiry; 0: disarmed
	dials   int     // connections still dialling their target
	paused  int     // listeners out of descriptors
	events  []unix.EpollEvent
	base    time.Time // times are monotonic nanoseconds since base (l.now)
	yielded int64     // when the loop last yielded its processor
	swept   int64     // when it last looked for dials past their time
}

func (lp *loop) init() {
	lp.base = time.Now()
	lp.events = make([]unix.EpollEvent, 256)
}

// sock is one side of a connection and the events it is registered for.
type sock struct {
	fd   int
	mask uint32 // 0: not registered
}

// conn is one client connection and the line's connection to the target.
type conn struct {
	slot           int32
	gen            uint32
	client, target sock
	up, down       dir // client→target, target→client
	dialing        bool
	deadline       int64 // of the dial
}

// dir is one direction of a connection.
type dir struct {
	flight
	c        *conn
	from, to *sock
	delay    *delay
	eof      bool // the source ended: once all is delivered, the destination's write side closes
	shut     bool // it has
	full     bool // maxFlight in flight: the source waits
	blocked  bool // the destination's buffer is full: waiting for it to drain
	hi       int  // index in the heap; -1: not in it
}

// run serves until Close wakes it, or epoll fails.
func (l *Line) run() {
	for {
		n, err := l.wait()
		if err != 0 && err != unix.EINTR {
			return
		}
		now := l.now()
		for _, ev := range l.events[:max(n, 0)] {
			kind, gen := uint32(ev.Pad)&0xff, uint32(ev.Pad)>>8
			switch kind {
			case evWake:
				return
			case evListen:
				l.accept(l.paths[ev.Fd], now)
			case evClient, evTarget:
				if c := l.conns[ev.Fd]; c != nil && c.gen == gen {
					l.ready(c, kind, ev.Events, now)
				}
			}
		}
		l.deliver()
		l.arm()
		if (l.dials > 0 || l.paused > 0) && now >= l.swept+int64(sweepEvery) {
			l.sweep(now)
			l.swept = now
		}
		if now-l.yielded > int64(yieldEvery) {
			runtime.Gosched()
			l.yielded = now
		}
	}
}

// yieldEvery is how often a busy loop yields its processor: the runtime
// preempts (with a signal) a goroutine that has run for 10 ms.
const yieldEvery = 5 * time.Millisecond

// wait waits for events. With nothing in flight it tells the runtime
// (which may then lend the processor elsewhere: the line is idle);
// otherwise it waits unseen (see sys_linux.go), at most yieldEvery.
func (l *Line) wait() (int, unix.Errno) {
	sweep := l.dials > 0 || l.paused > 0
	if len(l.heap) == 0 && !sweep {
		n, err := unix.EpollWait(l.ep, l.events, -1)
		if errno, ok := err.(unix.Errno); ok {
			return n, errno
		}
		return n, 0
	}
	timeout := yieldEvery
	if sweep {
		timeout = min(timeout, sweepEvery)
	}
	return rawEpollWait(l.ep, l.events, int(timeout/time.Millisecond))
}

// ready handles events on one side of c: a dial that completed, a
// destination that drained, a source with data.
func (l *Line) ready(c *conn, kind, events uint32, now int64) {
	in, out := &c.up, &c.down // the client side feeds up and drains down
	if kind == evTarget {
		in, out = &c.down, &c.up
	}
	if c.dialing {
		if kind == evTarget {
			l.dialed(c)
		}
		return
	}
	if events&(unix.EPOLLOUT|unix.EPOLLERR|unix.EPOLLHUP) != 0 && out.blocked {
		out.blocked = false
		if !l.write(c, out, now) {
			return
		}
	}
	if events&(unix.EPOLLIN|unix.EPOLLERR|unix.EPOLLHUP) != 0 && !in.eof && !in.full {
		if !l.read(c, in) {
			return
		}
	}
	l.watch(c)
}

// read takes what the source has as one chunk, due at its reading plus
// the direction's delay; false when c was dropped. The chunk is stamped
// when the read returns, never with the time the loop woke: on a busy
// machine the loop may run late through its events, and bytes that
// arrived meanwhile, stamped with the wake-up, would be delivered early.
func (l *Line) read(c *conn, d *dir) bool {
	b := d.space()
	if len(b) == 0 {
		d.full = true
		return true
	}
	n, err := rawRead(d.from.fd, b)
	switch {
	case n > 0:
		now := l.now()
		if d.empty() && !d.blocked {
			d.add(n, now+int64(d.delay.draw()))
			l.heap.push(d)
		} else {
			d.add(n, now+int64(d.delay.draw()))
		}
	case err == unix.EAGAIN || err == unix.EINTR:
	default: // end of stream, or reset: what was read is still delivered
		d.eof = true
		if d.empty() {
			return l.finish(c, d)
		}
	}
	return true
}

// write delivers every chunk of d due by now in one write; false when c
// was dropped (the destination failed: both sides close, as when a wire
// breaks).
func (l *Line) write(c *conn, d *dir, now int64) bool {
	if b := d.due(now); len(b) > 0 {
		n, err := rawWrite(d.to.fd, b)
		if err == 0 {
			d.consume(n)
			d.full = false
		}
		switch {
		case err == unix.EAGAIN || err == unix.EINTR || (err == 0 && n < len(b)):
			d.blocked = true
		case err != 0:
			l.drop(c)
			return false
		}
	}
	switch {
	case d.blocked || d.empty():
		l.heap.remove(d)
		if !d.blocked && d.eof {
			return l.finish(c, d)
		}
	case d.hi < 0:
		l.heap.push(d)
	default:
		l.heap.fix(d)
	}
	return true
}

// finish closes d's destination for writing, its source having ended
// and all delivered; with both directions finished c is dropped (false).
func (l *Line) finish(c *conn, d *dir) bool {
	_ = unix.Shutdown(d.to.fd, unix.SHUT_WR)
	d.shut = true
	if c.up.shut && c.down.shut {
		l.drop(c)
		return false
	}
	return true
}

// deliver writes every chunk due by now, and those that come due while
// it writes (a write takes microseconds): chunks that arrived within a
// few microseconds of each other, as a fan-out's, leave in one wake-up.
func (l *Line) deliver() {
	now := l.now()
	for len(l.heap) > 0 {
		if l.heap[0].next() > now {
			if now = l.now(); l.heap[0].next() > now {
				return
			}
		}
		d := l.heap[0]
		if l.write(d.c, d, now) {
			l.watch(d.c)
		}
	}
}

// arm sets the timerfd to the earliest due chunk (a timerfd set again
// is no longer readable, so an expiry needs no read). It is set for the
// time left from now, not for an absolute time: the loop's clock and the
// timerfd's run at the same rate, but their origins could only be
// matched approximately, and a loop clock behind the timerfd's would
// deliver late.
func (l *Line) arm() {
	var want int64
	if len(l.heap) > 0 {
		want = l.heap[0].next()
	}
	if want == l.armed {
		return
	}
	var spec unix.ItimerSpec // zero: disarmed
	if want != 0 {
		spec.Value = unix.NsecToTimespec(max(want-l.now(), 1))
	}
	if unix.TimerfdSettime(l.timer, 0, &spec, nil) == nil {
		l.armed = want
	}
}

// watch registers c's sides for the events the loop waits for: a source
// with room to read, a destination that must drain, a dial to complete.
func (l *Line) watch(c *conn) {
	l.watchSock(c, &c.client, evClient, !c.dialing && !c.up.eof && !c.up.full, c.down.blocked)
	l.watchSock(c, &c.target, evTarget, !c.dialing && !c.down.eof && !c.down.full, c.up.blocked || c.dialing)
}

func (l *Line) watchSock(c *conn, s *sock, kind uint32, in, out bool) {
	var want uint32
	if in {
		want |= unix.EPOLLIN
	}
	if out {
		want |= unix.EPOLLOUT
	}
	if want == s.mask {
		return
	}
	op := unix.EPOLL_CTL_MOD
	switch {
	case s.mask == 0:
		op = unix.EPOLL_CTL_ADD
	case want == 0: // nothing awaited: unregistered, so a hang-up does not wake the loop in vain
		op = unix.EPOLL_CTL_DEL
	}
	if l.ctl(op, s.fd, want, c.slot, kind|c.gen<<8) == nil {
		s.mask = want
	}
}
