package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/safety"
)

func newSafetyCmd() *cobra.Command {
	req := safety.Request{Config: safety.DefaultConfig()}
	var flags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "safety",
		Short: "Violations per 10⁶ grants as a fault grows, per backend, with and without fencing",
		Long:  safety.Help(),
		Example: `  lockbench safety --backends redlock,etcd --ratios 0.5,2 --fencing both --json safety.json
  lockbench safety --backends redlock --grants 2000
  lockbench safety --fault clock-jump,restart --backends redlock,redlock/rueidis,redsync
  lockbench safety --fault all --backends all --html safety.html`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out, err := req.Check(cmd.OutOrStdout(), cmd.ErrOrStderr(), flags)
			if err != nil {
				return err
			}
			return req.Measure(cmd.Context(), out, cmd.ErrOrStderr(), runSafety)
		},
	}
	flags = flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}

// runSafety measures a sweep (a seam for the CLI's tests).
var runSafety = safety.Run
