package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/safety"
)

// safetyRequest is a safety sweep as the command line gives it: the
// sweep's config and where its points go.
type safetyRequest struct {
	safety.Config
	JSON string `json:"-" flag:"json" value:"FILE" help:"write the points and the sweep's config as JSON to FILE (- for stdout)"`
	HTML string `json:"-" flag:"html" value:"FILE" help:"write the points' plot (violations per 10⁶ grants against fault ÷ TTL) as HTML to FILE"`
}

func newSafetyCmd() *cobra.Command {
	req := safetyRequest{Config: safety.DefaultConfig()}
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
			if err := req.Validate(); err != nil {
				return lab.BadInput(err, flags)
			}
			out := safety.Outputs{JSON: req.JSON, HTML: req.HTML, Stdout: cmd.OutOrStdout()}
			if err := out.Check(cmd.ErrOrStderr()); err != nil {
				return exit.UsageError{Err: lab.OutputError(err)}
			}
			return runSafetyCmd(cmd, req, out)
		},
	}
	flags = flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}

// runSafety measures a sweep (a seam for the CLI's tests).
var runSafety = safety.Run

func runSafetyCmd(cmd *cobra.Command, req safetyRequest, out safety.Outputs) error {
	ctx := cmd.Context()
	res, err := runSafety(ctx, req.Config, cmd.ErrOrStderr())
	switch {
	case err != nil && len(res.Points) == 0:
		return lab.UpError(ctx, err)
	case res.Interrupted && len(res.Points) == 0:
		return exit.ErrInterruptedEarly
	}
	tables := cmd.OutOrStdout()
	if req.JSON == "-" {
		tables = cmd.ErrOrStderr()
	}
	safety.WriteTable(tables, res.Points)
	if werr := lab.OutputError(out.Write(res)); werr != nil {
		return werr
	}
	switch {
	case err != nil:
		return err
	case res.Interrupted:
		return exit.ErrInterrupted
	}
	return nil
}
