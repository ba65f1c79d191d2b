package main

// startMetrics serves --metrics-addr (nothing when unset) and gives c the
// exporter its cells report to. A bad or taken address is bad input, found
// before any server starts.
func startMetrics(c *RunConfig) (stop func(), err error) {
	if c.metrics, stop, err = c.ServeMetrics(c.errOut()); err != nil {
		return nil, fieldUsage(err)
	}
	return stop, nil
}
