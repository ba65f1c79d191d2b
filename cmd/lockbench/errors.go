package main

import (
	"fmt"
	"io"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/lab"
)

// checkFailures says loudly when more than half of a run's attempts failed
// (lab.MostlyFailed) and makes it a failure (exit 1), unless the run asked
// for failures (--allow-failures, or --fault).
func checkFailures(w io.Writer, cfg RunConfig, runs []results.Run) error {
	bad, warnings := lab.MostlyFailed(runs, cfg.Driver.Redlock.NodeTimeout)
	for _, line := range warnings {
		fmt.Fprintln(w, "lockbench: WARNING:", line)
	}
	if len(bad) == 0 || cfg.AllowFailures || len(cfg.Faults) > 0 {
		return nil
	}
	return exitError{exitFailure, fmt.Sprintf("more than half the attempts failed in %v (--allow-failures accepts that)", bad)}
}
