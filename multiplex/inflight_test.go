package multiplex

import (
	"testing"
	"time"
)

// batchAt is one batch fed to a flightLimit: it ended at ms milliseconds
// and took rtt.
type batchAt struct {
	ms  int
	rtt time.Duration
}

// batches makes n batches one millisecond apart from ms on, each taking rtt.
func batches(ms, n int, rtt time.Duration) []batchAt {
	out := make([]batchAt, n)
	for i := range out {
		out[i] = batchAt{ms + i, rtt}
	}
	return out
}

func cat(parts ...[]batchAt) []batchAt {
	var out []batchAt
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestFlightLimit: an adaptive limit is 1 until the fastest recent round
// trip, resting on enough batches, reaches FarRoundTrip; it drops back at
// the first fast batch and rises again only once that batch has left the
// two windows. A fixed limit never moves.
func TestFlightLimit(t *testing.T) {
	const (
		near = 40 * time.Microsecond
		far  = time.Millisecond
		busy = 600 * time.Microsecond // a loaded loopback's slow batch
	)
	win := int(floorWindow / time.Millisecond)
	for _, tc := range []struct {
		name        string
		maxInFlight int
		feed        []batchAt
		want        int
	}{
		{"adaptive, no batch yet", 0, nil, 1},
		{"adaptive, close", 0, batches(0, 100, near), 1},
		{"adaptive, far", 0, batches(0, 100, far), DefaultMaxInFlight},
		{"adaptive, at the threshold", 0, batches(0, 100, farRoundTrip), DefaultMaxInFlight},
		{"adaptive, just under it", 0, batches(0, 100, farRoundTrip-time.Microsecond), 1},
		{"adaptive, far but too few batches", 0, batches(0, floorSamples-1, far), 1},
		{"adaptive, far on just enough batches", 0, batches(0, floorSamples, far), DefaultMaxInFlight},
		{"adaptive, loaded loopback: slow batches, some fast", 0,
			cat(batches(0, 50, busy), batches(50, 1, near), batches(51, 50, busy)), 1},
		{"adaptive, one fast batch brings it back at once", 0,
			cat(batches(0, 50, far), batches(50, 1, near)), 1},
		{"adaptive, a fast batch counts in its window and the next", 0,
			cat(batches(0, 1, near), batches(1, win+10, far)), 1},
		{"adaptive, far again once the fast batch is two windows old", 0,
			cat(batches(0, 1, near), batches(1, 2*win+10, far)), DefaultMaxInFlight},
		{"adaptive, coming closer after an idle spell", 0,
			cat(batches(0, 50, far), batches(10*win, 1, near)), 1},
		{"fixed 1, far", 1, batches(0, 100, far), 1},
		{"fixed 4, close", 4, batches(0, 100, near), 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlightLimit(tc.maxInFlight)
			t0 := time.Unix(0, 0)
			for _, b := range tc.feed {
				f.observe(t0.Add(time.Duration(b.ms)*time.Millisecond), b.rtt)
			}
			if f.now != tc.want {
				t.Fatalf("limit %d after %d batches, want %d", f.now, len(tc.feed), tc.want)
			}
			wantMost := tc.maxInFlight
			if wantMost == 0 {
				wantMost = DefaultMaxInFlight
			}
			if f.most != wantMost {
				t.Fatalf("most %d, want %d", f.most, wantMost)
			}
		})
	}
}
