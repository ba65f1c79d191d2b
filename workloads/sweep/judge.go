package sweep

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
	"github.com/lockbench/lockbench/workloads/lab"
)

// keepUp is the share of an open-loop rate a good step must achieve.
const keepUp = 0.9

// judge decides whether run, measured with cell, was sustainable under
// c: the p99 of c.Op within c.SLO, errors within c.MaxErrorRate of the
// attempts, no violation, an open loop within 10 % of its rate, not
// interrupted. Reason lists every failure.
func judge(c Config, cell lab.Config, run schema.Run) schema.SweepStep {
	st, _ := judgeWhy(c, cell, run)
	return st
}

// judgeWhy is judge, and whether the step failed on its p99 alone (no
// error, violation, shortfall or interruption): the one failure host
// noise can cause at a load the cell carries.
func judgeWhy(c Config, cell lab.Config, run schema.Run) (st schema.SweepStep, latencyOnly bool) {
	c = c.withDefaults()
	p99 := run.LatencyUS[c.Op].P99
	st = schema.SweepStep{Workers: cell.Workload.Workers, Rate: cell.Workload.Rate, CyclesPerS: run.Throughput.CyclesPerS, P99US: p99,
		Errors: run.Counts.Errors + run.Counts.Timeouts + run.Counts.ReleaseErrors, ServiceP99US: run.ServiceUS[c.Op].P99}
	var why []string
	if !schema.Measured(run, c.Op) {
		// Nothing completed (every attempt failed): no p99 to hold to the SLO.
		why = append(why, "no "+c.Op+" measured")
	}
	over := p99 > float64(c.SLO)/1e3
	if over {
		why = append(why, fmt.Sprintf("p99 %s over the SLO %v", time.Duration(p99*1e3).Round(time.Microsecond), c.SLO))
	}
	if float64(st.Errors) > c.maxErrorRate()*float64(run.Counts.Attempts) {
		why = append(why, fmt.Sprintf("%d errors/timeouts in %d attempts", st.Errors, run.Counts.Attempts))
	}
	if run.Counts.Violations > 0 {
		why = append(why, fmt.Sprintf("%d violations", run.Counts.Violations))
	}
	if rate := cell.Workload.Rate; rate > 0 && run.Throughput.CyclesPerS < keepUp*rate {
		why = append(why, fmt.Sprintf("kept up with %.0f%% of the rate", 100*run.Throughput.CyclesPerS/rate))
	}
	if run.Interrupted {
		why = append(why, "interrupted")
	}
	st.OK, st.Reason = len(why) == 0, strings.Join(why, "; ")
	return st, over && len(why) == 1
}

// judgeMedians judges a load from its measurements runs (one or more, in
// order): Judge of one run made of their medians — p99 of c.Op,
// cycles/s, and the errors and attempts of the measurement whose share of
// failed attempts is the median — with every measurement's violations
// (one is one too many) and cut short when any was. One measurement's
// burst of timeouts thus fails a step no more than its p99 does. The
// step carries the samples' count and spread, and the median p99 of the
// service time where the runs have one; the bool is judgeWhy's.
func judgeMedians(c Config, cell lab.Config, runs []schema.Run) (schema.SweepStep, bool) {
	c = c.withDefaults()
	if len(runs) == 1 {
		st, latencyOnly := judgeWhy(c, cell, runs[0])
		st.Samples = 1
		return st, latencyOnly
	}
	var p99s, cps, service []float64
	med := schema.Run{LatencyUS: map[string]schema.Percentiles{}}
	for _, r := range runs {
		if schema.Measured(r, c.Op) {
			p99s = append(p99s, r.LatencyUS[c.Op].P99)
		}
		cps = append(cps, r.Throughput.CyclesPerS)
		if s, ok := r.ServiceUS[c.Op]; ok && s.Count > 0 {
			service = append(service, s.P99)
		}
		med.Counts.Violations += r.Counts.Violations
		med.Interrupted = med.Interrupted || r.Interrupted
	}
	byErrors := slices.Clone(runs)
	slices.SortStableFunc(byErrors, func(a, b schema.Run) int { return cmp.Compare(errorShare(a), errorShare(b)) })
	m := byErrors[(len(byErrors)-1)/2].Counts
	med.Counts.Attempts, med.Counts.Errors, med.Counts.Timeouts, med.Counts.ReleaseErrors = m.Attempts, m.Errors, m.Timeouts, m.ReleaseErrors
	if len(p99s) > 0 {
		med.LatencyUS[c.Op] = schema.Percentiles{Count: int64(len(p99s)), P99: stats.Median(p99s)}
	}
	med.Throughput.CyclesPerS = stats.Median(cps)
	if len(service) > 0 {
		med.ServiceUS = map[string]schema.Percentiles{c.Op: {Count: int64(len(service)), P99: stats.Median(service)}}
	}
	st, latencyOnly := judgeWhy(c, cell, med)
	st.Samples = len(runs)
	if len(p99s) > 0 {
		st.P99MinUS, st.P99MaxUS = slices.Min(p99s), slices.Max(p99s)
	}
	st.CyclesPerSMin, st.CyclesPerSMax = slices.Min(cps), slices.Max(cps)
	return st, latencyOnly
}

// errorShare is the share of r's attempts that failed as Judge counts
// them (errors, timeouts, failed releases); 1 for no attempt.
func errorShare(r schema.Run) float64 {
	if r.Counts.Attempts == 0 {
		return 1
	}
	return float64(r.Counts.Errors+r.Counts.Timeouts+r.Counts.ReleaseErrors) / float64(r.Counts.Attempts)
}
