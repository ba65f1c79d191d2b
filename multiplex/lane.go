package multiplex

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// lane is one master's queue and its writers. Each writer is a long-lived
// goroutine that takes up to a batch of queued commands, runs them as one
// DoBatch and answers them by position. A lane has as many writers as its
// flightLimit's most, and a batch leaves as soon as commands are queued and
// fewer batches than the limit are in flight (inflight.go).
//
// While more than one batch may be in flight, a command whose key is in a
// batch still in flight waits in the queue until that batch is answered:
// batches in flight at once travel on their own connections and may reach
// the master in any order, so without this two contenders for one key
// could be seen in one order by some masters and in the other by the rest
// (a split vote that one batch in flight never makes). Commands of one key
// therefore reach a master in queue order, as with one writer, while
// different keys travel at once.
type lane struct {
	node  BatchNode
	idx   int
	batch int
	delay time.Duration

	clock func() time.Time // time.Now; a test seam
	timed bool             // the limit adapts: time every batch

	far atomic.Bool // limit.now > 1, read without the lock by gather

	mu       sync.Mutex
	queue    []pending
	limit    flightLimit
	inFlight int            // batches taken and not yet done
	busy     map[string]int // commands in flight per key, of the batches taken keyed
	closed   bool
	wake     chan struct{} // capacity 1: "the queue holds commands no writer has claimed"
	full     chan struct{} // capacity 1: "the queue reached a batch"
}

// pending is one command queued on one lane.
type pending struct {
	cmd Cmd
	c   *call
}

// dropped reports whether p is left unsent: its caller has gone (timed
// out or cancelled) and it is an acquire or an extend, whose loss leaves
// nothing on the master. A release is always sent: it is the clean-up of
// an attempt that failed or ended, and without it the key would block the
// next attempt until its TTL.
func (p pending) dropped() bool { return p.cmd.Kind != Release && p.c.gone.Load() }

func newLane(node BatchNode, idx int, opt Options) *lane {
	l := &lane{node: node, idx: idx, batch: opt.Batch, delay: opt.FlushDelay, clock: time.Now,
		limit: newFlightLimit(opt.MaxInFlight),
		wake:  make(chan struct{}, 1), full: make(chan struct{}, 1)}
	l.timed = l.limit.adaptive
	l.far.Store(l.limit.now > 1)
	if l.limit.most > 1 {
		l.busy = map[string]int{}
	}
	return l
}

func (l *lane) enqueue(p pending) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		l.fail([]pending{p}, errClosed)
		return
	}
	l.queue = append(l.queue, p)
	n := len(l.queue)
	keyed := l.limit.now > 1
	l.mu.Unlock()
	switch {
	case n == 1 || keyed: // keyed: the commands queued may all wait for their keys
		signal(l.wake)
	case n == l.batch && l.delay > 0:
		signal(l.full)
	}
}

// signal posts on a capacity-1 channel without blocking.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// take moves up to a batch of queued commands into spare (emptied) and
// returns them, and whether their keys were marked in flight (done
// releases them). The writer holding the wake signal is the only one that
// takes, so the signal stands for "commands wait and nobody has claimed
// them": when more than a batch waits, take passes the signal on to the
// next free writer; with the limit's batches in flight it takes nothing,
// and done wakes a writer. Under a limit of 1 no other batch is in flight
// and none can leave before this one is done (the limit moves only in
// done), so no key needs marking: a queue of at most a batch is swapped
// out whole, and enqueuers never wait on a copy.
func (l *lane) take(spare []pending) ([]pending, bool) {
	l.mu.Lock()
	if l.inFlight >= l.limit.now {
		l.mu.Unlock()
		return spare[:0], false
	}
	if l.limit.now > 1 {
		return l.takeKeyed(spare), true
	}
	q := l.queue
	if len(q) <= l.batch {
		q = dropGone(q)
		if len(q) == 0 {
			l.queue = q
			l.mu.Unlock()
			return spare[:0], false
		}
		l.inFlight++
		l.queue = spare[:0]
		l.mu.Unlock()
		return q, false
	}
	spare, i := spare[:0], 0
	for ; i < len(q) && len(spare) < l.batch; i++ {
		if !q[i].dropped() {
			spare = append(spare, q[i])
		}
	}
	rest := copy(q, q[i:])
	clear(q[rest:])
	l.queue = q[:rest]
	if len(spare) > 0 {
		l.inFlight++
	}
	l.mu.Unlock()
	if rest > 0 {
		signal(l.wake)
	}
	return spare, false
}

// dropGone removes, in place and in order, the commands left unsent
// (pending.dropped).
func dropGone(q []pending) []pending {
	n := 0
	for _, p := range q {
		if !p.dropped() {
			q[n] = p
			n++
		}
	}
	clear(q[n:])
	return q[:n]
}

// takeKeyed is take under a limit above 1, called with l.mu held, which
// it releases: it moves up to a batch of the queued commands whose keys no
// batch in flight holds into spare, in queue order, leaves the others
// queued in order, and marks the taken keys in flight until done releases
// them. Several commands of one free key may share the batch (one
// connection keeps their order). The wake signal is passed on only when the
// batch filled with commands left over; commands left because their key is
// in flight are woken for by done.
func (l *lane) takeKeyed(spare []pending) []pending {
	spare = spare[:0]
	q, rest := l.queue, 0
	for _, p := range q {
		if p.dropped() {
			continue
		}
		if len(spare) < l.batch && l.busy[p.cmd.Key] == 0 {
			spare = append(spare, p)
			continue
		}
		q[rest] = p
		rest++
	}
	clear(q[rest:])
	l.queue = q[:rest]
	for _, p := range spare {
		l.busy[p.cmd.Key]++
	}
	if len(spare) > 0 {
		l.inFlight++
	}
	more := len(spare) == l.batch && rest > 0
	l.mu.Unlock()
	if more {
		signal(l.wake)
	}
	return spare
}

// done ends answered batch q, taken at start (zero when the limit is
// fixed): it releases q's keys if take marked them, feeds the batch's round
// trip to the limit and, when commands wait, wakes a writer: some may have
// waited for these keys or for a batch to end.
func (l *lane) done(q []pending, keyed bool, start time.Time) {
	var end time.Time
	if !start.IsZero() {
		end = l.clock()
	}
	l.mu.Lock()
	l.inFlight--
	if keyed {
		for _, p := range q {
			if l.busy[p.cmd.Key]--; l.busy[p.cmd.Key] <= 0 {
				delete(l.busy, p.cmd.Key)
			}
		}
	}
	if !start.IsZero() {
		l.limit.observe(end, end.Sub(start))
		l.far.Store(l.limit.now > 1)
	}
	waiting := len(l.queue) > 0
	l.mu.Unlock()
	if waiting {
		signal(l.wake)
	}
}

// close refuses further commands and fails those queued.
func (l *lane) close() {
	l.mu.Lock()
	l.closed = true
	q := l.queue
	l.queue = nil
	l.mu.Unlock()
	l.fail(q, errClosed)
}

// write is one writer's loop, until ctx ends.
func (l *lane) write(ctx context.Context) {
	var (
		spare []pending
		cmds  = make([]Cmd, 0, l.batch)
		out   = make([]Reply, l.batch)
		timer = stoppedTimer() // the linger's, re-armed per flush
	)
	for {
		select {
		case <-l.wake:
		case <-ctx.Done():
		}
		if ctx.Err() != nil { // closed: no batch leaves after Close
			l.close()
			return
		}
		if l.delay > 0 {
			l.linger(ctx, timer)
		} else if l.gather() {
			runtime.Gosched()
		}
		q, keyed := l.take(spare)
		if len(q) == 0 {
			spare = q
			continue
		}
		cmds = cmds[:0]
		var budget time.Duration
		for _, p := range q {
			cmds = append(cmds, p.cmd)
			budget = max(budget, p.cmd.Timeout)
		}
		var start time.Time
		if l.timed {
			start = l.clock()
		}
		l.flush(ctx, cmds, out[:len(q)], budget)
		l.done(q, keyed, start)
		for j, p := range q {
			p.c.answer(l.idx, out[j])
		}
		clear(q) // drop references to finished calls
		spare = l.reuse(q)
	}
}

// spareBatches is, in batches, the largest array a writer keeps for its
// next take.
const spareBatches = 4

// reuse is what a writer keeps of its answered batch q for its next take:
// q, unless q's array is larger than spareBatches batches. A queue drained
// after a backlog (thousands of workers, callers that timed out) is handed
// to a writer whole, and kept as that writer's spare it would hold the
// backlog's memory for the rest of the run, once per writer; dropped, the
// queue grows again only if the backlog comes back.
func (l *lane) reuse(q []pending) []pending {
	if cap(q) > spareBatches*l.batch {
		return nil
	}
	return q
}

// linger waits up to the flush delay for the queue to fill a batch: woken
// by the enqueue that fills it, the timer or ctx, never by polling.
func (l *lane) linger(ctx context.Context, timer *time.Timer) {
	select {
	case <-l.full: // a stale signal from a batch already flushed
	default:
	}
	l.mu.Lock()
	n := len(l.queue)
	l.mu.Unlock()
	if n >= l.batch {
		return
	}
	timer.Reset(l.delay)
	select {
	case <-l.full:
	case <-timer.C:
		return
	case <-ctx.Done():
	}
	timer.Stop() // since Go 1.23 no stale tick can be received after Stop
}

// flush runs one batch bounded by the longest per-master timeout in it, as
// a deadlineCtx (budget.go): no timer unless the client asks for Done.
func (l *lane) flush(ctx context.Context, cmds []Cmd, out []Reply, budget time.Duration) {
	if budget <= 0 {
		l.node.DoBatch(ctx, cmds, out)
		return
	}
	dctx := withDeadline(ctx, budget)
	l.node.DoBatch(dctx, cmds, out)
	dctx.cancel()
}

func (l *lane) fail(q []pending, err error) {
	for _, p := range q {
		p.c.answer(l.idx, Reply{Status: Failed, Err: err})
	}
}

// gather reports whether a woken writer first yields its processor
// (runtime.Gosched) so that the goroutines already runnable enqueue before
// it takes: only while more than one batch may be in flight, the one case
// where a command would otherwise leave alone. Callers answered by one
// batch wake together and send their next commands microseconds apart;
// without the yield the first of them wakes a writer that takes it alone
// and the rest follow in batches of their own, one write and one round
// trip's wait each. With it they leave together: at 1 ms and 8 workers
// commands per batch went from about 1.6 to 5.5 and cycles/s up by 10 %,
// at 250 µs and 16 workers (CPU-bound) up by 60 %. One yield per batch,
// never per command; a limit of 1 needs none: its commands gather while
// the batch in flight travels.
func (l *lane) gather() bool { return l.far.Load() }
