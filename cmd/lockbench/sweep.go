package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/workloads/sweep"
)

func newSweepCmd() *cobra.Command {
	sc := sweep.NewCommand()
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Capacity planning: raise the load until p99 breaks the SLO; report the knee",
		Long:  sweep.Help,
		Example: `  lockbench sweep --slo 2ms
  lockbench sweep --muxes sequential,fanout,pipeline --client rueidis --slo 5ms --out sweep/
  lockbench sweep --by workers --start 1 --factor 2 --slo 1ms`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sc.Base.SetIO(cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err := sc.Validate(); err != nil {
				return err
			}
			return sc.Measure(cmd.Context())
		},
	}
	sc.Bind(cmd.Flags())
	return cmd
}
