package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
)

// searchKnee raises the load by --factor until a step fails (or, when the
// first one fails, lowers it until one holds), then bisects --refine times
// between the highest good and lowest bad load.
func searchKnee(ctx context.Context, sc SweepConfig, step func(load float64) (bool, error)) error {
	good, bad := 0.0, 0.0
	load := math.Max(1, math.Round(sc.Start))
	for i := 0; i < sc.MaxSteps && ctx.Err() == nil; i++ {
		ok, err := step(load)
		if err != nil {
			return err
		}
		if ok {
			good = load
			if bad > 0 {
				break // stepping down found a good load under the first bad one
			}
			load = up(sc, load)
			continue
		}
		if bad == 0 || load < bad {
			bad = load
		}
		if good > 0 {
			break
		}
		// Even the first load failed: step down until one holds.
		if load = down(sc, load); load == 0 {
			break
		}
	}
	for i := 0; i < sc.Refine && bad > 0 && good > 0 && ctx.Err() == nil; i++ {
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

// Loads are whole numbers: workers, or cycles/s (finer rates measure noise).
func up(sc SweepConfig, load float64) float64 {
	return math.Max(math.Round(load*sc.Factor), load+1)
}

// down is the next lower load, 0 when there is none (under 1 worker, or a
// rate too low to measure a p99 in --duration).
func down(sc SweepConfig, load float64) float64 {
	next := math.Min(math.Round(load/sc.Factor), load-1)
	// A p99 needs samples: stop where a step would measure under 100 cycles.
	if next < 1 || sc.By == "rate" && next*sc.Base.Workload.Duration.Seconds() < 100 {
		return 0
	}
	return next
}

func loadOf(sc SweepConfig, st capacity.Step) float64 {
	if sc.By == "rate" {
		return st.Rate
	}
	return float64(st.Workers)
}

// sweepOps are the ops every workload records, so every step measures
// them. extend is not among them: no workload extends its leases, and a p99
// of no samples (0) would pass any SLO and make every step a knee.
var sweepOps = []string{"acquire", "acquire_total", "release", "cycle"}

// checkSweepOp refuses an --op the steps would not measure.
func checkSweepOp(op string) error {
	for _, o := range sweepOps {
		if o == op {
			return nil
		}
	}
	if results.KnownOp(op) {
		return usagef("--op %s: no workload measures %s latency; want one of %s", op, op, strings.Join(sweepOps, ", "))
	}
	return usagef("--op %q: want one of %s", op, strings.Join(sweepOps, ", "))
}

// judgeStep decides whether a step was sustainable.
func judgeStep(sc SweepConfig, c RunConfig, r results.Run) capacity.Step {
	p99 := r.LatencyUS[sc.Op].P99
	st := capacity.Step{Workers: c.Workload.Workers, Rate: c.Workload.Rate, CyclesPerS: r.Throughput.CyclesPerS, P99US: p99,
		Errors: r.Counts.Errors + r.Counts.Timeouts + r.Counts.ReleaseErrors}
	var why []string
	if !results.Measured(r, sc.Op) {
		// Nothing completed (every attempt failed): no p99 to hold to the SLO.
		why = append(why, "no "+sc.Op+" measured")
	}
	if p99 > float64(sc.SLO)/1e3 {
		why = append(why, fmt.Sprintf("p99 %s over the SLO %v", time.Duration(p99*1e3).Round(time.Microsecond), sc.SLO))
	}
	if float64(st.Errors) > sc.MaxErrorRate*float64(r.Counts.Attempts) {
		why = append(why, fmt.Sprintf("%d errors/timeouts in %d attempts", st.Errors, r.Counts.Attempts))
	}
	if r.Counts.Violations > 0 {
		why = append(why, fmt.Sprintf("%d violations", r.Counts.Violations))
	}
	if c.Workload.Rate > 0 && r.Throughput.CyclesPerS < 0.9*c.Workload.Rate {
		why = append(why, fmt.Sprintf("kept up with %.0f%% of the rate", 100*r.Throughput.CyclesPerS/c.Workload.Rate))
	}
	if r.Interrupted {
		why = append(why, "interrupted")
	}
	st.OK, st.Reason = len(why) == 0, strings.Join(why, "; ")
	return st
}

func verdict(st capacity.Step) string {
	if st.OK {
		return "ok"
	}
	return "over: " + st.Reason
}
