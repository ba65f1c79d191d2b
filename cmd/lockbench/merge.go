package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/flagtag"
)

func newMergeCmd() *cobra.Command {
	var req output.MergeRequest
	cmd := &cobra.Command{
		Use:   "merge DIR DIR... -o OUT",
		Short: "Merge runs measured at the same time (several machines or processes) from their .hlog files",
		Long:  output.MergeHelp,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Inputs, req.Log = args, cmd.ErrOrStderr()
			if err := req.Validate(); errors.Is(err, output.ErrNoOut) {
				return usagef("merge: -o/--out DIR is required")
			} else if err != nil {
				return usageError{flagError(err)}
			}
			sum, err := req.Merge()
			switch {
			case errors.Is(err, output.ErrBadInput):
				return usageError{flagError(err)}
			case err != nil:
				return flagError(err)
			case req.Quiet:
				return nil
			}
			return results.WriteTable(cmd.OutOrStdout(), sum.Runs, results.TableOptions{})
		},
	}
	flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}
