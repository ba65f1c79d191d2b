package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/generators"
	"github.com/lockbench/lockbench/workloads/lab"
)

func newCompareCmd() *cobra.Command {
	cc := compare.NewCommand()
	gen := generators.DefaultConfig()
	var genFlags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "compare",
		Short: "Measure a matrix of clients × strategies × workloads on the same servers",
		Long:  compare.Help,
		Example: `  lockbench compare
  lockbench compare --clients rueidis --muxes fanout,auto --workloads uncontended --workers 256
  lockbench compare --masters 1,3,5,7 --muxes sequential,fanout,pipeline --json scaling.json
  lockbench compare --ceiling --workloads uncontended
  lockbench compare --repeat 3 --workloads uncontended --json rounds.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cc.Base.SetIO(cmd.OutOrStdout(), cmd.ErrOrStderr())
			plan, err := cc.Plan(flagtag.Given(cmd.Flags()))
			if err != nil {
				return err
			}
			if err := gen.CheckGiven(flagtag.Given(cmd.Flags())); err != nil {
				return lab.BadInput(err, genFlags)
			}
			if err := gen.CheckCompare(plan); err != nil {
				return lab.BadInput(err, genFlags, cc.Flags())
			}
			if gen.On() {
				return generators.MeasureCompare(cmd.Context(), cmd.OutOrStdout(), cc, plan, gen)
			}
			return cc.Measure(cmd.Context(), cmd.OutOrStdout(), plan)
		},
	}
	cc.Bind(cmd.Flags())
	genFlags = flagtag.New(cmd.Flags()).Bind(&gen)
	for _, single := range []string{"client", "mux", "workload", "client-defaults"} {
		_ = cmd.Flags().MarkHidden(single) // compare takes the lists and --defaults-rows instead
	}
	return cmd
}
