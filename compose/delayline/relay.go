package delayline

import (
	"context"
	"fmt"
	"io"
	"net"
	"slices"
	"time"
)

// The line's own relay time: a chunk that goes through the line crosses
// loopback twice where a direct one crosses it once, and waits for the
// line's thread to wake at its due time and write it. Measured on the
// 2-core machine with redis-cli --latency, a round trip through the line
// with no delay took 0.30 ms against 0.15 ms direct, and one at 1 ms 1.32
// ms: left in, a line asked for 250 µs would add 400 µs. So the line
// measures that time when it starts, through a path of its own with a
// delay (so the timer's wake-up is in it), and takes it off every delay
// it was asked for: a round trip through a line at RTT costs RTT more than
// a direct one, as a longer wire would, and never less than the line's
// own relaying (a delay never goes below zero).

// relayProbeRTT is the round trip the timing path adds when no pair asks
// for one (a line for latency faults alone): long enough that the line's
// thread sleeps until a chunk's due time. A line for a distance times its
// relay at that distance (probeRTT), at most maxProbeRTT: how long the
// thread sleeps moves how long it takes to wake.
const (
	relayProbeRTT = 400 * time.Microsecond
	maxProbeRTT   = 2 * time.Millisecond
)

// relayProbe is what a line's relay is timed against: an echo server in
// this process, and a path of the line in front of it that adds the
// distance the line plays (probeRTT), listed after the pairs'.
type relayProbe struct {
	echo net.Listener
	rtt  time.Duration
}

// newRelayProbe starts the echo server for a line of pairs.
func newRelayProbe(pairs []Pair) (*relayProbe, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("relay time: %w", err)
	}
	go echoServer(ln)
	return &relayProbe{echo: ln, rtt: probeRTT(pairs)}, nil
}

// with is pairs and, last, the probe's path.
func (p *relayProbe) with(pairs []Pair) []Pair {
	return append(slices.Clip(pairs), Pair{Listen: "127.0.0.1:0", Target: p.echo.Addr().String(), Distance: Distance{RTT: p.rtt}})
}

// time is the line's relay time, timed through via, the line's listener
// of the probe's path (relayTime). A burst of other work on the machine
// while it is timed makes every wake-up late and the figure too large, and
// a line that took it off every delay would deliver early for the rest of
// its life: a figure of half the probe's round trip or more is timed
// again, up to relayTries times, and the least is kept (the relay's own
// cost is what is left without interference).
func (p *relayProbe) time(ctx context.Context, via string) (time.Duration, error) {
	return leastOf(relayTries, p.rtt/2, func() (time.Duration, error) {
		return relayTime(ctx, via, p.echo.Addr().String(), p.rtt)
	})
}

// leastOf calls measure until a figure is under bound or tries are spent,
// and returns the least figure.
func leastOf(tries int, bound time.Duration, measure func() (time.Duration, error)) (time.Duration, error) {
	best := time.Duration(-1)
	for range tries {
		d, err := measure()
		if err != nil {
			return 0, err
		}
		if best < 0 || d < best {
			best = d
		}
		if best < bound {
			break
		}
	}
	return best, nil
}

// relayTries is how many times time measures a relay that looks inflated.
const relayTries = 3

// close stops the echo server; connections to it end with relayTime's.
func (p *relayProbe) close() { _ = p.echo.Close() }

// probeRTT is the round trip the timing path adds for pairs: the longest
// of theirs up to maxProbeRTT, or relayProbeRTT when none adds one.
func probeRTT(pairs []Pair) time.Duration {
	d := time.Duration(0)
	for _, p := range pairs {
		d = max(d, p.Distance.RTT)
	}
	if d == 0 {
		return relayProbeRTT
	}
	return min(d, maxProbeRTT)
}

// relayProbes is how many round trips each way relayTime times.
const relayProbes = 64

// relayProbeSize is one probe's bytes: about a Redlock command's.
const relayProbeSize = 48

// relayQuantile is the share of the paired differences at or below the
// relay time taken off: the median, so that the time a round trip gains
// through the line is, on the median, what was asked; a probe the
// scheduler delayed on one side only moves it no more than any other.
const relayQuantile = 0.5

// relayTime times round trips to an echo server in this process, directly
// and through via (a path of the line adding nominal, whose target is the
// echo server), interleaved, and returns what the line adds beyond
// nominal per round trip: the relayQuantile of the paired differences
// less nominal, at least zero.
func relayTime(ctx context.Context, via, echo string, nominal time.Duration) (time.Duration, error) {
	var d net.Dialer
	direct, err := d.DialContext(ctx, "tcp", echo)
	if err != nil {
		return 0, fmt.Errorf("relay time: %w", err)
	}
	defer direct.Close()
	relayed, err := d.DialContext(ctx, "tcp", via)
	if err != nil {
		return 0, fmt.Errorf("relay time: %w", err)
	}
	defer relayed.Close()
	if dl, ok := ctx.Deadline(); ok {
		_ = direct.SetDeadline(dl)
		_ = relayed.SetDeadline(dl)
	}
	buf := make([]byte, relayProbeSize)
	diffs := make([]time.Duration, 0, relayProbes)
	for i := 0; i <= relayProbes; i++ {
		a, err := probe(direct, buf)
		if err != nil {
			return 0, fmt.Errorf("relay time: direct: %w", err)
		}
		b, err := probe(relayed, buf)
		if err != nil {
			return 0, fmt.Errorf("relay time: through the line: %w", err)
		}
		if i > 0 { // the first pair pays the connections' first use
			diffs = append(diffs, b-a-nominal)
		}
	}
	slices.Sort(diffs)
	return max(diffs[int(relayQuantile*float64(len(diffs)-1))], 0), nil
}

// probe sends buf on c and reads it back, returning the round trip.
func probe(c net.Conn, buf []byte) (time.Duration, error) {
	start := time.Now()
	if _, err := c.Write(buf); err != nil {
		return 0, err
	}
	if _, err := io.ReadFull(c, buf); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// echoServer answers every connection with what it reads, until ln
// closes.
func echoServer(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			_, _ = io.Copy(c, c)
		}()
	}
}

// SetRelay takes d off both legs of every path: the line's own relay
// time per direction (half of relayTime's), which the line adds however
// short the delay.
func (l *Line) SetRelay(d time.Duration) {
	for _, p := range l.paths {
		p.up.own.Store(int64(d))
		p.down.own.Store(int64(d))
	}
}
