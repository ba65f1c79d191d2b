package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/workloads"
)

func newWorkloadsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "workloads",
		Short: "List the workloads (--workload), hold-time distributions (--hold-dist) and pacing modes",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return workloads.WriteHelp(cmd.OutOrStdout())
		},
	}
}
