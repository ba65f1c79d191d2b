package multiplex

import "time"

// DefaultMaxInFlight is the most batches in flight per master of a
// Pipeline whose Options.MaxInFlight is 0 (adaptive). At 1 ms and 8
// workers, 8 in flight took the pipeline from 0.38 to 0.65–0.67 of the
// wire's bound, and a lane has no more commands at once than workers.
const DefaultMaxInFlight = 8

// farRoundTrip is the fastest recent batch round trip from which an
// adaptive lane lets more than one batch travel at once. A batch's round
// trip is the wire's plus its CPU work; the fastest of many is about the
// wire alone: 23–37 µs on loopback, whatever the load (2-core machine,
// 8–64 workers, where the median batch took 100–300 µs), against 380 µs
// and more with 250 µs added. Waiting for a batch so far away costs its
// callers up to a round trip, far more than the ~20 µs of CPU a write of
// its own costs on each side.
const farRoundTrip = 200 * time.Microsecond

// floorWindow is how long a round trip counts towards the floor: the floor
// is the fastest batch of the current window and the one before, so a
// lane that comes closer knows at once and one that moves away within two
// windows.
const floorWindow = 250 * time.Millisecond

// floorSamples is how many batches the floor must rest on before it may
// raise the limit: one slow first batch (a cold connection, a descheduled
// writer) says nothing about the distance.
const floorSamples = 8

// flightLimit is a lane's limit of batches in flight. A fixed limit never
// moves; an adaptive one is 1 while the fastest recent round trip is under
// FarRoundTrip (close masters: commands that arrive while a batch travels
// wait and leave together, one write for many) and most beyond it (far
// masters: they leave at once, a step costs one round trip instead of up to
// two). It is fed one round trip per batch, under the lane's lock.
type flightLimit struct {
	now      int // the limit
	most     int
	adaptive bool

	since       time.Time     // start of the current window
	cur, prev   time.Duration // fastest round trip of the current and the previous window (0: none)
	curN, prevN int           // batches in each
}

// newFlightLimit makes the limit Options.MaxInFlight asks for: n > 0 is a
// fixed n, 0 adaptive up to DefaultMaxInFlight.
func newFlightLimit(n int) flightLimit {
	if n > 0 {
		return flightLimit{now: n, most: n}
	}
	return flightLimit{now: 1, most: DefaultMaxInFlight, adaptive: true}
}

// observe records a batch that took rtt and ended at end, and moves an
// adaptive limit.
func (f *flightLimit) observe(end time.Time, rtt time.Duration) {
	if !f.adaptive {
		return
	}
	if f.curN == 0 || end.Sub(f.since) >= floorWindow {
		f.prev, f.prevN = f.cur, f.curN
		f.cur, f.curN, f.since = rtt, 0, end
	}
	f.cur = min(f.cur, rtt)
	f.curN++
	floor := f.cur
	if f.prevN > 0 {
		floor = min(floor, f.prev)
	}
	if floor >= farRoundTrip && f.curN+f.prevN >= floorSamples {
		f.now = f.most
	} else {
		f.now = 1
	}
}
