package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/workloads"
)

func newWorkloadsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "workloads",
		Short: "List the workloads, hold-time distributions and pacing modes",
		Example: `  lockbench workloads
  lockbench run --workload zipf --keys 1000 --zipf-s 1.2`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return workloads.WriteHelp(cmd.OutOrStdout())
		},
	}
}
