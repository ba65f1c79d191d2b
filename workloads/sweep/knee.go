package sweep

import (
	"context"
	"math"
)

// stepFunc measures load until it has at least n measurements (none more
// when it has them) and gives the verdict of the medians of all its
// measurements.
type stepFunc func(load float64, n int) (verdict, error)

// verdict is whether a load held and, when it did not, whether its p99
// alone failed it (what host noise can do at a load the cell carries).
type verdict struct{ ok, latencyOnly bool }

// bracket is where a search left the knee: the highest load that held and
// the lowest that failed (0: none), and the loads whose failure was taken
// for noise because a load half a step above them held.
type bracket struct {
	good, bad float64
	noise     []float64
}

// searchKnee climbs by Factor from Start, one measurement a step, until a
// step fails. A failure is confirmed: the step is measured Repeat times
// and judged on its medians; held after all, the climb goes on. A
// confirmed failure has the step below it confirmed the same way; when
// that one fails too, the search steps down (each step confirmed) until
// one holds. Then it bisects Refine times between the confirmed good and
// bad loads, each midpoint judged on Repeat measurements. It stops early
// when ctx is canceled. One noisy measurement thus neither stops the
// climb nor sets the knee.
//
// The knee is judged on the curve: a confirmed failure on p99 alone,
// above a step that held, ends the climb only when a higher load fails
// too (latency growing with load; one measurement of it says so). That
// load is half a step up (the geometric midpoint to the next step): near
// the capacity, where a burst of host noise moves p99 the most, a whole
// step up lies past the capacity and fails whatever the step below it
// did. When the higher load holds (confirmed on Repeat measurements) the
// failure was the host's noise, not queueing: the climb goes on above it.
func searchKnee(ctx context.Context, c Config, step stepFunc) (bracket, error) {
	var b bracket
	n := c.repeat()
	load := math.Max(1, math.Round(c.Start))
	steps := 0
	for ; steps < c.MaxSteps && ctx.Err() == nil; steps++ {
		v, err := step(load, 1)
		if err == nil && !v.ok {
			v, err = step(load, n)
		}
		if err != nil {
			return b, err
		}
		if !v.ok && v.latencyOnly && b.good > 0 && steps+1 < c.MaxSteps && ctx.Err() == nil {
			// One failure above is the curve rising; a pass is confirmed.
			above := c.halfUp(load)
			u, err := step(above, 1)
			if err == nil && u.ok {
				u, err = step(above, n)
			}
			if err != nil {
				return b, err
			}
			if u.ok {
				steps++
				b.noise, b.good, load = append(b.noise, load), above, c.up(above)
				continue
			}
		}
		if !v.ok {
			b.bad = load
			break
		}
		b.good = load
		load = c.up(load)
	}
	if b.bad == 0 || ctx.Err() != nil {
		return b, nil // no step failed: the highest measured is the knee
	}
	// Confirm the step below the failure, stepping down while it fails.
	below := b.good
	for b.good = 0; ctx.Err() == nil; steps++ {
		if below == 0 {
			if below = c.down(b.bad); below == 0 || steps >= c.MaxSteps {
				return b, nil // nothing lower to try
			}
		}
		v, err := step(below, n)
		if err != nil {
			return b, err
		}
		if v.ok {
			b.good = below
			break
		}
		b.bad, below = below, 0
	}
	for i := 0; i < c.refine() && b.good > 0 && ctx.Err() == nil; i++ {
		mid := math.Round((b.good + b.bad) / 2)
		if mid <= b.good || mid >= b.bad {
			break
		}
		v, err := step(mid, n)
		if err != nil {
			return b, err
		}
		if v.ok {
			b.good = mid
		} else {
			b.bad = mid
		}
	}
	return b, nil
}

// up is the next higher load. Loads are whole numbers: workers, or
// cycles/s (finer rates measure noise).
func (c Config) up(load float64) float64 {
	return math.Max(math.Round(load*c.Factor), load+1)
}

// halfUp is the load half a step above load: the geometric midpoint
// between it and the next step.
func (c Config) halfUp(load float64) float64 {
	return math.Max(math.Round(load*math.Sqrt(c.Factor)), load+1)
}

// minSamples is the fewest cycles a step by rate may be planned for: a
// p99 needs samples.
const minSamples = 100

// down is the next lower load, 0 when there is none (under 1 worker, or a
// rate too low to measure a p99 in the step's duration).
func (c Config) down(load float64) float64 {
	next := math.Min(math.Round(load/c.Factor), load-1)
	if next < 1 || c.By == ByRate && next*c.Base.Workload.Duration.Seconds() < minSamples {
		return 0
	}
	return next
}
