package record

import (
	"github.com/lockbench/lockbench/results/schema"
)

// Fill sets r's counts, latencies and throughput from the merged total.
func Fill(r *schema.Run, t *Interval) {
	secs := t.End.Sub(t.Start).Seconds()
	r.DurationS = secs
	c := &r.Counts
	c.Acquired = t.Count(schema.OpAcquire, schema.OK)
	c.Busy = t.Count(schema.OpAcquire, schema.Busy)
	c.SplitBrain = t.Count(schema.OpAcquire, schema.SplitBrain)
	c.Timeouts = t.Count(schema.OpAcquire, schema.Timeout)
	c.Errors = t.Count(schema.OpAcquire, schema.Error)
	c.Attempts = t.Total(schema.OpAcquire)
	c.Cycles = t.Count(schema.OpCycle, schema.OK)
	c.GaveUp = t.Total(schema.OpAcquireTotal) - t.Count(schema.OpAcquireTotal, schema.OK)
	c.ReleaseErrors = t.Total(schema.OpRelease) - t.Count(schema.OpRelease, schema.OK)
	if secs > 0 {
		r.Throughput = schema.Throughput{CyclesPerS: float64(c.Cycles) / secs, AttemptsPerS: float64(c.Attempts) / secs}
	}
	r.SplitBrainRate, r.RetriesPerAcquire = c.Rates()
	r.LatencyUS = map[string]schema.Percentiles{}
	for _, op := range schema.Ops() {
		if h := t.Latency(op); h.TotalCount() > 0 || op != schema.OpExtend {
			r.LatencyUS[op.String()] = Summarize(h)
		}
		if h := t.Service(op); h != nil && h.TotalCount() > 0 {
			if r.ServiceUS == nil {
				r.ServiceUS = map[string]schema.Percentiles{}
			}
			r.ServiceUS[op.String()] = Summarize(h)
		}
	}
}
