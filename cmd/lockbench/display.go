package main

import (
	"fmt"

	"github.com/lockbench/lockbench/results/prom"
)

// startMetrics serves --metrics-addr (nothing when unset) and gives c the
// exporter its cells report to. A bad or taken address is bad input, found
// before any server starts.
func startMetrics(c *RunConfig) (stop func(), err error) {
	e, srv, err := prom.Serve(c.MetricsAddr)
	if err != nil {
		return nil, usagef("--metrics-addr %q: %v", c.MetricsAddr, err)
	}
	if c.metrics = e; e != nil && !c.Quiet {
		fmt.Fprintf(c.errOut(), "metrics at http://%s/metrics\n", srv.Addr())
	}
	return srv.Stop, nil
}
