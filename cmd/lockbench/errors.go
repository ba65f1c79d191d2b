package main

import (
	"io"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/lab"
)

// checkFailures says loudly when more than half of a run's attempts failed
// and makes it a failure (exit 1), unless the run asked for failures
// (--allow-failures, or --fault): lab.CheckFailures.
func checkFailures(w io.Writer, cfg RunConfig, runs []results.Run) error {
	if err := lab.CheckFailures(w, cfg.Config, runs, cfg.AllowFailures); err != nil {
		return exitError{exitFailure, err.Error() + " (--allow-failures accepts that)"}
	}
	return nil
}
