// Package delayline puts network distance between a client and its
// servers on one machine: a TCP relay per server whose every chunk is
// delivered at its arrival time plus the path's delay, as a longer wire
// delivers it. Chunks in flight overlap (a chunk's delivery does not wait
// for the delay of the chunks before it), so a connection carrying
// pipelined or concurrent commands pays the distance once per round trip;
// order is kept (with jitter, a chunk is never delivered before the one
// ahead of it) and no byte is dropped.
//
// The relay runs in a process of its own (Start re-executes the current
// program, whose main or TestMain calls ServeIfChild first), so the
// client's CPU, syscalls and allocations stay the client's alone and the
// relay's own CPU can be read apart (Process.Pid, /proc/<pid>/stat).
//
// It imports only the standard library and golang.org/x/sys; it must
// not import compose, drivers, workloads, results or cmd.
package delayline

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"time"
)

// Distance is a round trip with its jitter: "1ms", "1ms±100us" (or
// "1ms+-100us"). Each direction is delayed by half of RTT, each chunk by
// a further uniform draw in ±Jitter/2, so a round trip varies by up to
// ±Jitter.
type Distance struct {
	RTT    time.Duration `json:"rtt"`
	Jitter time.Duration `json:"jitter,omitempty"`
}

// ParseDistance parses "RTT[±JITTER]" (time.ParseDuration units; "+-" for
// "±"); Check tells whether it can be played.
func ParseDistance(s string) (Distance, error) {
	s = strings.TrimSpace(s)
	r, j, hasJitter := strings.Cut(strings.Replace(s, "+-", "±", 1), "±")
	var d Distance
	var err error
	if d.RTT, err = time.ParseDuration(strings.TrimSpace(r)); err != nil {
		return Distance{}, fmt.Errorf("round trip %q: want a duration such as 1ms or 1ms±100us", s)
	}
	if hasJitter {
		if d.Jitter, err = time.ParseDuration(strings.TrimSpace(j)); err != nil {
			return Distance{}, fmt.Errorf("round trip %q: jitter %q: want a duration such as 100us", s, j)
		}
	}
	return d, nil
}

// Check reports a negative round trip or jitter, or a jitter above the
// round trip (a chunk cannot leave before it arrived).
// MaxRTT bounds a round trip: far beyond any network, and a line keeps
// every chunk in memory for half of it each way.
const maxRTT = time.Minute

func (d Distance) Check() error {
	switch {
	case d.RTT < 0:
		return fmt.Errorf("round trip %v: must not be negative", d.RTT)
	case d.Jitter < 0:
		return fmt.Errorf("jitter %v: must not be negative", d.Jitter)
	case d.Jitter > d.RTT:
		return fmt.Errorf("jitter %v: above the round trip %v", d.Jitter, d.RTT)
	case d.RTT > maxRTT:
		return fmt.Errorf("round trip %v: at most %v (a line holds every chunk that long)", d.RTT, maxRTT)
	}
	return nil
}

// String is "1ms" or "1ms±100us".
func (d Distance) String() string {
	if d.Jitter == 0 {
		return d.RTT.String()
	}
	return d.RTT.String() + "±" + d.Jitter.String()
}

// Legs are the two directions' delays of a round trip: half of RTT each,
// each a uniform draw in ±Jitter/2.
func (d Distance) Legs() (up, down Leg) {
	l := Leg{Delay: d.RTT / 2, Jitter: d.Jitter / 2}
	return l, l
}

// Leg is one direction's delay: Delay, plus a uniform draw in ±Jitter.
type Leg struct {
	Delay, Jitter time.Duration
}

// delay is one direction's delay, changed while connections run (a
// latency fault); a chunk takes the delay in force when it arrives.
type delay struct {
	base, jitter atomic.Int64 // ns; jitter is the half-width of the draw
	own          atomic.Int64 // ns: the line's own relay time, taken off base (SetRelay)
}

func (d *delay) set(l Leg) {
	d.base.Store(int64(l.Delay))
	d.jitter.Store(int64(l.Jitter))
}

// draw is the delay of one chunk: base less the line's own relay time, ±
// a uniform draw in jitter, never below zero.
func (d *delay) draw() time.Duration {
	b, j := d.base.Load()-d.own.Load(), d.jitter.Load()
	if j > 0 {
		b += rand.Int64N(2*j+1) - j
	}
	return time.Duration(max(b, 0))
}

// MarshalText is String: a distance serialises as "1ms±100us".
func (d Distance) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText is ParseDistance (Check is for whoever plays it).
func (d *Distance) UnmarshalText(b []byte) error {
	v, err := ParseDistance(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
