package generators

import (
	"context"
	"errors"
	"time"
)

// TimeSource reads the common reference clock: the masters' TIME.
type TimeSource func(ctx context.Context) (time.Time, error)

// offset is the reference clock minus the local wall clock, measured at At
// (local wall), known to within ErrorNS: half the round trip of the best
// sample plus the reference's resolution.
type offset struct {
	At      time.Time `json:"at"`
	NS      int64     `json:"offset_ns"`
	ErrorNS int64     `json:"error_ns"`
	RTTNS   int64     `json:"rtt_ns"`
}

// offsetSamples is how many round trips an estimate takes; the one with
// the shortest round trip bounds the error best.
const offsetSamples = 32

// resolution is the masters' TIME resolution (microseconds).
const resolution = int64(time.Microsecond)

// MeasureOffset estimates the reference clock's offset from the local wall
// clock: for each sample, the reference's reading is taken to lie at the
// midpoint of the round trip, so the error is at most half the round trip.
func MeasureOffset(ctx context.Context, ref TimeSource) (offset, error) {
	var best offset
	found := false
	for range offsetSamples {
		t0 := time.Now()
		r, err := ref(ctx)
		t1 := time.Now()
		if err != nil {
			if ctx.Err() != nil {
				return offset{}, ctx.Err()
			}
			continue
		}
		rtt := t1.Sub(t0) // monotonic
		mid := t0.Add(rtt / 2)
		o := offset{At: mid, NS: r.UnixNano() - mid.UnixNano(), ErrorNS: int64(rtt)/2 + resolution, RTTNS: int64(rtt)}
		if !found || o.RTTNS < best.RTTNS {
			best, found = o, true
		}
	}
	if !found {
		return offset{}, errors.New("generators: the reference clock did not answer")
	}
	return best, nil
}

// Masters is local wall time t on the reference clock.
func (o offset) Masters(t time.Time) time.Time { return t.Add(time.Duration(o.NS)) }

// Local is reference time t on the local wall clock.
func (o offset) Local(t time.Time) time.Time { return t.Add(-time.Duration(o.NS)) }
