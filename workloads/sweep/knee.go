package sweep

import (
	"context"
	"math"
)

// stepFunc measures one load and says whether it held.
type stepFunc func(load float64) (ok bool, err error)

// searchKnee raises the load by Factor until a step fails (or, when the
// first one fails, lowers it until one holds), then bisects Refine times
// between the highest good and lowest bad load. It stops early when ctx
// is canceled.
func searchKnee(ctx context.Context, c Config, step stepFunc) error {
	good, bad := 0.0, 0.0
	load := math.Max(1, math.Round(c.Start))
	for i := 0; i < c.MaxSteps && ctx.Err() == nil; i++ {
		ok, err := step(load)
		if err != nil {
			return err
		}
		if ok {
			good = load
			if bad > 0 {
				break // stepping down found a good load under the first bad one
			}
			load = c.up(load)
			continue
		}
		if bad == 0 || load < bad {
			bad = load
		}
		if good > 0 {
			break
		}
		// Even the first load failed: step down until one holds.
		if load = c.down(load); load == 0 {
			break
		}
	}
	for i := 0; i < c.refine() && bad > 0 && good > 0 && ctx.Err() == nil; i++ {
		mid := math.Round((good + bad) / 2)
		if mid <= good || mid >= bad {
			break
		}
		ok, err := step(mid)
		if err != nil {
			return err
		}
		if ok {
			good = mid
		} else {
			bad = mid
		}
	}
	return nil
}

// up is the next higher load. Loads are whole numbers: workers, or
// cycles/s (finer rates measure noise).
func (c Config) up(load float64) float64 {
	return math.Max(math.Round(load*c.Factor), load+1)
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
