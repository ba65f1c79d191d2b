package main

import (
	"context"
	"errors"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/lab"
)

func newRunCmd() *cobra.Command {
	cfg := defaultRunConfig()
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run one backend/client/strategy/workload cell and report its latencies",
		Long:  lab.Help,
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cfg.validate(); err != nil {
				return err
			}
			if err := refuseIgnored(cmd.Flags(), cfg.Config); err != nil {
				return err
			}
			cfg.setIO(cmd)
			return runOne(cmd.Context(), cfg)
		},
	}
	bindRun(cmd.Flags(), &cfg)
	return cmd
}

// runOne is `lockbench run`: up, measure, write, down.
func runOne(ctx context.Context, cfg RunConfig) error {
	l, sum, closeLab, err := openLab(ctx, &cfg, cfg)
	if err != nil {
		return err
	}
	defer closeLab()
	m, err := measureCell(ctx, cfg, l)
	if err != nil {
		if ctx.Err() != nil {
			return errInterruptedEarly // e.g. while the driver dialed
		}
		return err
	}
	sum.Runs = []results.Run{m.Run}
	sum.Interrupted = ctx.Err() != nil
	if err := flagError(cfg.Writer(cfg.out()).Write(sum, lab.Logs([]lab.Cell{m}))); err != nil {
		return err
	}
	if sum.Interrupted {
		return errInterrupted
	}
	return checkFailures(cfg.errOut(), cfg, sum.Runs, true)
}

// upError classifies a failed compose.Up: Ctrl-C during start-up is an
// interruption before anything was measured, an unreachable server given by
// flag is bad input.
func upError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return errInterruptedEarly
	case errors.Is(err, compose.ErrUnreachable), errors.Is(err, compose.ErrSameServer):
		return usageError{err}
	}
	return err
}
