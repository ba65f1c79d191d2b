package workloads

import (
	"context"
	"math"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/schema"
)

// lateAfter is how far behind its intended start a cycle may begin before it
// counts as a missed start.
const lateAfter = int64(time.Millisecond)

// Pacing is what an open-loop run knows about keeping its schedule, over
// the measured window: the summary's own type.
type Pacing = schema.Pacing

// openLoop deals the slots of one constant-throughput schedule to whichever
// worker is free: slot n is due at at(n), whatever happened to slot n−1, so a
// stall delays the starts (and shows in the latency from the intended start)
// instead of thinning the load (coordinated omission).
type openLoop struct {
	now    func() int64
	origin int64   // clock time of slot 0
	perNS  float64 // rate in cycles per nanosecond
	ramp   int64   // ns over which the rate rises linearly from 0
	from   int64   // measured window start (clock)
	to     int64   // measured window end (clock): slots from here on are not counted
	next   atomic.Int64
	// measured-window counters
	started, late, maxLag atomic.Int64
}

func newOpenLoop(now func() int64, origin int64, rate float64, ramp, measureFrom, measureFor time.Duration) *openLoop {
	from := origin + int64(measureFrom)
	return &openLoop{now: now, origin: origin, perNS: rate / 1e9, ramp: int64(ramp), from: from, to: from + int64(measureFor)}
}

// at is slot n's intended start. Over the ramp the rate is R·t/D, so
// N(t) = R·t²/2D and t(n) = √(2Dn/R); after it, one slot every 1/R.
func (p *openLoop) at(n int64) int64 {
	inRamp := p.perNS * float64(p.ramp) / 2
	if fn := float64(n); fn < inRamp {
		return p.origin + int64(math.Sqrt(2*float64(p.ramp)*fn/p.perNS))
	}
	return p.origin + p.ramp + int64((float64(n)-inRamp)/p.perNS)
}

// slotsBy is how many slots are due before clock time t.
func (p *openLoop) slotsBy(t int64) int64 {
	d := float64(t - p.origin)
	if d <= 0 {
		return 0
	}
	if d < float64(p.ramp) {
		return int64(math.Ceil(p.perNS * d * d / (2 * float64(p.ramp))))
	}
	return int64(math.Ceil(p.perNS*float64(p.ramp)/2 + p.perNS*(d-float64(p.ramp))))
}

func (p *openLoop) Next(ctx context.Context, _ int) (int64, bool) {
	t := p.at(p.next.Add(1) - 1)
	if now := p.now(); t > now {
		if !sleep(ctx, time.Duration(t-now)) {
			return 0, false
		}
	} else if ctx.Err() != nil {
		return 0, false
	}
	// Only the window's slots count: the workers stop at its end by a
	// deadline, which a loaded machine delivers late, and a slot due after
	// the end begun meanwhile was never scheduled (started > scheduled).
	if t >= p.from && t < p.to {
		p.started.Add(1)
		if lag := p.now() - t; lag > lateAfter {
			p.late.Add(1)
			for m := p.maxLag.Load(); lag > m && !p.maxLag.CompareAndSwap(m, lag); m = p.maxLag.Load() {
			}
		}
	}
	return t, true
}

// stats closes the books at clock time end.
func (p *openLoop) stats(end int64) Pacing {
	s := Pacing{
		Rate: p.perNS * 1e9, RampS: time.Duration(p.ramp).Seconds(),
		Scheduled: p.slotsBy(end) - p.slotsBy(p.from),
		Started:   p.started.Load(), Late: p.late.Load(), MaxLagUS: float64(p.maxLag.Load()) / 1e3,
	}
	s.Unstarted = max(0, s.Scheduled-s.Started)
	s.Missed = s.Late + s.Unstarted
	return s
}

// rampDelay staggers closed-loop workers' first cycle over --ramp, so the
// offered load rises linearly.
func rampDelay(c Config, worker int) time.Duration {
	if c.Rate > 0 || c.Ramp <= 0 || c.Workers <= 1 {
		return 0
	}
	return time.Duration(int64(c.Ramp) * int64(worker) / int64(c.Workers))
}

// warmup is the unrecorded lead-in: --warmup, extended to cover --ramp.
func (c Config) warmup() time.Duration { return max(c.Warmup, c.Ramp) }

func validatePacing(c Config) error {
	switch {
	case c.Rate < 0 || math.IsNaN(c.Rate) || math.IsInf(c.Rate, 0):
		return fielderr.Invalid("rate", c.Rate, "must be 0 (closed loop) or a positive number of cycles/s")
	case c.Rate > 0 && c.Rate < 0.1:
		return fielderr.Invalid("rate", c.Rate, "below 0.1 cycles/s")
	case c.Rate > maxRate:
		return fielderr.Invalid("rate", c.Rate, "above %g cycles/s (the schedule counts nanoseconds)", float64(maxRate))
	case c.Ramp < 0:
		return fielderr.Invalid("ramp", c.Ramp, "must not be negative")
	}
	return nil
}
