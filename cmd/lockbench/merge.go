package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/workloads/lab"
)

func newMergeCmd() *cobra.Command {
	var req output.MergeRequest
	cmd := &cobra.Command{
		Use:   "merge DIR DIR... -o OUT",
		Short: "Merge runs measured at once by several processes or machines, from their .hlog files",
		Long:  output.MergeHelp,
		Example: `  lockbench run --redis "$MASTERS" --prefix host1 --out runs/host1   # on host1
  lockbench run --redis "$MASTERS" --prefix host2 --out runs/host2   # on host2, at once
  lockbench merge runs/host1 runs/host2 -o runs/merged
  lockbench gate runs/merged --threshold 'violations==0'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Inputs, req.Log = args, cmd.ErrOrStderr()
			if err := req.Validate(); errors.Is(err, output.ErrNoOut) {
				return exit.Usagef("merge: -o/--out DIR is required")
			} else if err != nil {
				return exit.UsageError{Err: lab.OutputError(err)}
			}
			sum, err := req.Merge()
			switch {
			case errors.Is(err, output.ErrBadInput):
				return exit.UsageError{Err: lab.OutputError(err)}
			case err != nil:
				return lab.OutputError(err)
			case req.Quiet:
				return nil
			}
			return render.WriteTable(cmd.OutOrStdout(), sum.Runs, render.TableOptions{})
		},
	}
	flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}
