// Package crossref is the referee across processes: each generator logs
// its grants (per-worker buffers, no lock on the hot path), the logs are
// put on one clock — the masters' — with each generator's offset and its
// error bound, and Judge finds the overlaps between grants of different
// generators. An overlap the error bounds cannot settle is undecidable:
// neither a violation nor safe.
package crossref

import "math"

// Grant is one acquisition on the run clock of the process that logged
// it: held from Granted until min(ValidUntil, Released).
type Grant struct {
	Key                          string
	Granted, ValidUntil, Release int64
	Fence                        uint64
}

// End is when the grant stopped protecting the key: its release or its
// validity's end, whichever came first.
func (g Grant) End() int64 { return min(g.ValidUntil, g.Release) }

// chunk is how many grants a worker's buffer grows by: one allocation per
// chunk, never one per grant.
const chunk = 4096

// Log keeps the grants of a run's measured window, one buffer per worker
// (only that worker appends to it), so logging takes no lock.
type Log struct {
	workers     [][]Grant
	from, until int64
}

// NewLog logs grants of workers workers.
func NewLog(workers int) *Log {
	return &Log{workers: make([][]Grant, workers), until: math.MaxInt64}
}

// Window sets the measured window [from, until): only grants made in it
// are logged.
func (l *Log) Window(from, until int64) { l.from, l.until = from, until }

// From is the window's start on the run clock.
func (l *Log) From() int64 { return l.from }

// Grant logs worker's grant of key. Called by the worker only.
func (l *Log) Grant(worker int, key string, granted, validUntil int64, fence uint64) {
	if granted < l.from || granted >= l.until {
		return
	}
	b := l.workers[worker]
	if len(b) == cap(b) {
		nb := make([]Grant, len(b), len(b)+chunk)
		copy(nb, b)
		b = nb
	}
	l.workers[worker] = append(b, Grant{Key: key, Granted: granted, ValidUntil: validUntil, Release: math.MaxInt64, Fence: fence})
}

// Release marks worker's latest grant of key released at `at`. Called by
// the worker only.
func (l *Log) Release(worker int, key string, at int64) {
	b := l.workers[worker]
	if n := len(b); n > 0 && b[n-1].Key == key && b[n-1].Release == math.MaxInt64 {
		b[n-1].Release = at
	}
}

// Grants are every logged grant; call it once the workers have stopped.
func (l *Log) Grants() []Grant {
	n := 0
	for _, b := range l.workers {
		n += len(b)
	}
	out := make([]Grant, 0, n)
	for _, b := range l.workers {
		out = append(out, b...)
	}
	return out
}
