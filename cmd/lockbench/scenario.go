package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/scenario"
)

func newScenarioCmd() *cobra.Command {
	var jsonPath, metricsAddr string
	var list bool
	cmd := &cobra.Command{
		Use:   "scenario NAME|all",
		Short: "Run a named Redlock failure scenario and print measured vs expected",
		Long:  scenario.Intro + scenario.Help(),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("%s: one scenario NAME or all, not %q", cmd.CommandPath(), strings.Join(args, " "))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || list {
				fmt.Fprint(cmd.OutOrStdout(), scenario.Help())
				return nil
			}
			picked, err := scenario.Pick(args[0])
			if err != nil {
				return usageError{err}
			}
			if jsonPath != "" {
				if err := checkOutputFile("--json", jsonPath); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if jsonPath == "-" {
				out = cmd.ErrOrStderr() // stdout is the JSON alone
			}
			metrics := RunConfig{Options: output.Options{MetricsAddr: metricsAddr}}
			stopMetrics, err := startMetrics(&metrics)
			if err != nil {
				return err
			}
			defer stopMetrics()
			started := time.Now()
			runs, err := runScenarios(cmd.Context(), out, picked, scenario.Observers{Log: cmd.ErrOrStderr(), Metrics: metrics.metrics})
			// The JSON holds every row measured, also one whose outcome
			// differs from the expected (exit 1), never a half-run.
			if jsonPath != "" && (err == nil || isExitError(err)) {
				if werr := scenario.WriteJSON(cmd.OutOrStdout(), jsonPath, started, picked, runs); werr != nil {
					return flagError(werr)
				}
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the scenarios and what each expects (as without NAME)")
	cmd.Flags().StringVar(&metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://HOST:PORT/metrics while measuring")
	cmd.Flags().StringVar(&jsonPath, "json", "", "write the scenarios' summary JSON (runs with their fault events, timelines and outcomes) to FILE")
	return cmd
}

// runScenario measures one scenario (a seam for the CLI's tests).
var runScenario = scenario.Run

// runScenarios runs list, printing a table after each run of scenarios of
// one kind; runs are the rows for --json, also when an outcome differs
// from the expected (exitError).
func runScenarios(ctx context.Context, w io.Writer, list []scenario.Scenario, obs scenario.Observers) ([]results.Run, error) {
	runs, differ, err := scenario.RunAll(ctx, list, obs, runScenario, scenario.Tables(w))
	if err != nil {
		return nil, upError(ctx, err)
	}
	if len(differ) > 0 {
		return runs, exitError{exitFailure, "measured outcome differs from the expected one: " + strings.Join(differ, ", ")}
	}
	return runs, nil
}

func isExitError(err error) bool {
	_, ok := err.(exitError)
	return ok
}
