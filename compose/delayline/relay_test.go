package delayline

import (
	"slices"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// TestProcessAddsWhatItIsAsked: a round trip through a line started at
// RTT costs RTT more than the same round trip direct, not RTT plus the
// line's own relaying (two more loopback crossings and a timer's
// wake-up, ~0.15 ms on the 2-core machine): the line times its relay as
// it starts and takes it off. Never much sooner than asked (the relay
// time is a median, timed again when a burst inflated it); within 10 %
// of it while the machine is not oversubscribed, which is when a wake-up
// costs what it cost at the start; on a machine other work oversubscribes,
// the round trip plus the relay time taken off is at least RTT.
func TestProcessAddsWhatItIsAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("times 200 round trips through a line")
	}
	const rtt, n = time.Millisecond, 100
	target := echo(t)
	p, err := Start([]Pair{{Listen: "127.0.0.1:0", Target: target, Distance: Distance{RTT: rtt}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if r := p.Relay(); r <= 0 || r >= rtt/2 {
		t.Errorf("relay time %v: want above 0 and under half the round trip", r)
	}
	direct, via := dial(t, target), dial(t, p.Addrs()[0])
	roundTrip(t, direct)
	roundTrip(t, via)
	added := make([]time.Duration, n)
	for i := range added {
		a := roundTrip(t, direct)
		added[i] = roundTrip(t, via) - a
	}
	slices.Sort(added)
	med := added[n/2]
	t.Logf("round trip through the line minus direct: median %v (p10 %v, p90 %v), relay time taken off %v, load factor %.1f",
		med, added[n/10], added[9*n/10], p.Relay(), slow.Factor())
	if slow.Factor() > 1 {
		// A burst at the start inflates the relay figure the line takes
		// off; it still takes off no more than the figure it reports.
		if med+p.Relay() < rtt*9/10 {
			t.Errorf("a round trip through a line at %v added %v with %v taken off: the delay itself is short", rtt, med, p.Relay())
		}
		t.Logf("bounds judged against the reported relay time: the machine is oversubscribed (load factor %.1f)", slow.Factor())
		return
	}
	if med < rtt*9/10 {
		t.Errorf("a round trip through a line at %v added %v: sooner than asked", rtt, med)
	}
	if med > rtt*11/10 {
		t.Errorf("a round trip through a line at %v added %v: the line's own relaying is not taken off", rtt, med)
	}
}

// TestLeastOf: a relay figure inflated by a burst of other work is timed
// again and the least kept; a plausible first figure is kept at once.
func TestLeastOf(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name    string
		figures []time.Duration
		want    time.Duration
		calls   int
	}{
		{"plausible at once", []time.Duration{ms / 10, ms / 20, ms / 30}, ms / 10, 1},
		{"a burst, then quiet", []time.Duration{2 * ms, ms / 10, ms / 20}, ms / 10, 2},
		{"bursts throughout: the least", []time.Duration{2 * ms, ms, 3 * ms / 2}, ms, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			got, err := leastOf(3, ms/2, func() (time.Duration, error) {
				calls++
				return tc.figures[calls-1], nil
			})
			if err != nil || got != tc.want || calls != tc.calls {
				t.Errorf("leastOf: %v after %d calls (err %v), want %v after %d", got, calls, err, tc.want, tc.calls)
			}
		})
	}
}
