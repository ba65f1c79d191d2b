package results

// Fill sets r's counts, latencies and throughput from the merged total.
func Fill(r *Run, t *Interval) {
	secs := t.End.Sub(t.Start).Seconds()
	r.DurationS = secs
	c := &r.Counts
	c.Acquired = t.Count(OpAcquire, OK)
	c.Busy = t.Count(OpAcquire, Busy)
	c.SplitBrain = t.Count(OpAcquire, SplitBrain)
	c.Timeouts = t.Count(OpAcquire, Timeout)
	c.Errors = t.Count(OpAcquire, Error)
	c.Attempts = t.Total(OpAcquire)
	c.Cycles = t.Count(OpCycle, OK)
	c.GaveUp = t.Total(OpAcquireTotal) - t.Count(OpAcquireTotal, OK)
	c.ReleaseErrors = t.Total(OpRelease) - t.Count(OpRelease, OK)
	if secs > 0 {
		r.Throughput = Throughput{CyclesPerS: float64(c.Cycles) / secs, AttemptsPerS: float64(c.Attempts) / secs}
	}
	r.SplitBrainRate, r.RetriesPerAcquire = c.Rates()
	r.LatencyUS = map[string]Percentiles{}
	for _, op := range Ops() {
		if h := t.Latency(op); h.TotalCount() > 0 || op != OpExtend {
			r.LatencyUS[op.String()] = Summarize(h)
		}
		if h := t.Service(op); h != nil && h.TotalCount() > 0 {
			if r.ServiceUS == nil {
				r.ServiceUS = map[string]Percentiles{}
			}
			r.ServiceUS[op.String()] = Summarize(h)
		}
	}
}
