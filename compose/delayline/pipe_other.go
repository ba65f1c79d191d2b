//go:build !linux

package delayline

import (
	"net"
	"sync"
	"time"
)

// chunkSize is the most one read takes; queueLen the chunks one direction
// holds in flight before its reader waits (back-pressure, as a full TCP
// window: data waits, it is never dropped).
const (
	chunkSize = 16 << 10
	queueLen  = 4096
)

var bufs = sync.Pool{New: func() any { b := make([]byte, chunkSize); return &b }}

// piece is what one read got, and when it is due at the other end.
type piece struct {
	buf *[]byte
	n   int
	due time.Time
}

// pipe carries one direction of one connection, src to dst: a reader
// stamps each chunk with its arrival time plus the direction's delay, a
// writer delivers each at that time. The reader never waits for the
// writer (up to queueLen chunks), so chunks in flight overlap. When src
// ends, dst's write side is closed after the last chunk; when dst fails,
// both ends are closed and what was queued is discarded with them.
func pipe(src, dst net.Conn, d *delay) {
	q := make(chan piece, queueLen)
	go func() {
		defer close(q)
		var last time.Time
		for {
			b := bufs.Get().(*[]byte)
			n, err := src.Read(*b)
			if n > 0 {
				due := time.Now().Add(d.draw())
				if due.Before(last) { // jitter never reorders
					due = last
				}
				last = due
				q <- piece{buf: b, n: n, due: due}
			} else {
				bufs.Put(b)
			}
			if err != nil {
				return
			}
		}
	}()
	sl := time.NewTimer(time.Hour)
	defer sl.Stop()
	for c := range q {
		if wait := time.Until(c.due); wait > 0 {
			sl.Reset(wait)
			<-sl.C
		}
		_, err := dst.Write((*c.buf)[:c.n])
		bufs.Put(c.buf)
		if err != nil {
			_ = src.Close()
			_ = dst.Close()
			for c := range q {
				bufs.Put(c.buf)
			}
			return
		}
	}
	if tc, ok := dst.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
	} else {
		_ = dst.Close()
	}
}
