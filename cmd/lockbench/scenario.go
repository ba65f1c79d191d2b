package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/scenario"
)

// scenarioIntro is what running a scenario does, before the catalogue
// (scenario.Help): lockbench scenario's help.
const scenarioIntro = "scenario runs a documented experiment from the Redlock debate against 5 local masters and prints\n" +
	"violations (from the referee), availability before/during/after the fault and recovery time next to\n" +
	"the expected outcome. Scenarios:\n\n"

func newScenarioCmd() *cobra.Command {
	var req scenario.Request
	var flags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "scenario NAME|all",
		Short: "Run a named Redlock failure scenario and print measured vs expected",
		Long:  scenarioIntro + scenario.Help(),
		Example: `  lockbench scenario --list
  lockbench scenario minority-down
  lockbench scenario all --json scenarios.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return exit.Usagef("%s: one scenario NAME or all, not %q", cmd.CommandPath(), strings.Join(args, " "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || req.List {
				fmt.Fprint(cmd.OutOrStdout(), scenario.Help())
				return nil
			}
			req.Name = args[0]
			picked, err := req.Pick(cmd.OutOrStdout(), cmd.ErrOrStderr())
			if err != nil {
				return lab.BadInput(err, flags)
			}
			metrics, stopMetrics, err := output.Options{MetricsAddr: req.MetricsAddr}.ServeMetrics(cmd.ErrOrStderr())
			if err != nil {
				return lab.BadInput(err, flags)
			}
			defer stopMetrics()
			differ, err := req.Run(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), picked, runScenario, metrics)
			switch {
			case errors.As(err, new(*output.Error)):
				return lab.OutputError(err)
			case err != nil:
				return lab.UpError(cmd.Context(), err)
			case len(differ) > 0:
				return exit.Error{Code: exit.Failure, Msg: "measured outcome differs from the expected one: " + strings.Join(differ, ", ")}
			}
			return nil
		},
	}
	flags = flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}

// runScenario measures one scenario (a seam for the CLI's tests).
var runScenario = scenario.Run
