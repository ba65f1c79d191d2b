package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/lockbench/lockbench/results"
)

// checkFailures says loudly when more than half of a run's attempts failed
// (errors and timeouts) and makes it a failure (exit 1), unless the run
// asked for failures (--allow-failures, or --fault). A run whose failures
// are mostly timeouts is told its --workers exceed what the masters and
// this machine serve.
func checkFailures(w io.Writer, cfg RunConfig, runs []results.Run) error {
	var bad []string
	for _, r := range runs {
		c := r.Counts
		if !c.MostlyFailed() {
			continue
		}
		failed, why := c.Errors+c.Timeouts, ""
		if top := r.TopError(); top != "" {
			why = fmt.Sprintf(" (most common: %s)", top)
		}
		fmt.Fprintf(w, "lockbench: WARNING: %s: %.1f %% of %d attempts failed: %d errors, %d timeouts%s; the errors are listed under the table\n",
			r.Name, 100*float64(failed)/float64(c.Attempts), c.Attempts, c.Errors, c.Timeouts, why)
		if 2*c.Timeouts > c.Attempts {
			fmt.Fprintf(w, "lockbench: WARNING: %s: --workers %d is more than %d masters and this %d-CPU machine serve within --node-timeout %v: lower --workers (or raise --node-timeout)\n",
				r.Name, r.Workers, r.Masters, runtime.NumCPU(), cfg.Driver.Redlock.NodeTimeout)
		}
		bad = append(bad, r.Name)
	}
	if len(bad) == 0 || cfg.AllowFailures || len(cfg.Faults) > 0 {
		return nil
	}
	return exitError{exitFailure, fmt.Sprintf("more than half the attempts failed in %v (--allow-failures accepts that)", bad)}
}
