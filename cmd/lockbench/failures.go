package main

import (
	"errors"
	"io"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// checkFailures says loudly when a run measured no progress (no grant, no
// completed cycle, a stall: exit 4) or more than half of its attempts
// failed (exit 1), unless the run asked for failures (--allow-failures, or
// --fault): lab.CheckFailures.
func checkFailures(w io.Writer, cfg RunConfig, runs []schema.Run, stallsFail bool) error {
	err := lab.CheckFailures(w, cfg.Config, runs, cfg.AllowFailures, stallsFail)
	var np *lab.NoProgressError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &np):
		return exitError{exitNoProgress, err.Error() + " (--allow-failures accepts that)"}
	}
	return exitError{exitFailure, err.Error() + " (--allow-failures accepts that)"}
}
