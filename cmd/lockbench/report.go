package main

import (
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/workloads/lab"
)

func newReportCmd() *cobra.Command {
	var out, title string
	cmd := &cobra.Command{
		Use:   "report DIR|SUMMARY.json|SAFETY.json... -o report.html",
		Short: "Render runs and safety sweeps as one self-contained HTML page (plots, config)",
		Long:  output.ReportHelp,
		Example: `  lockbench compare --out runs/compare && lockbench report runs/compare -o report.html
  lockbench report compare.json sweep/ -o - --title 'nightly' > nightly.html
  lockbench safety --json safety.json && lockbench report safety.json runs/compare -o report.html`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return exit.Usagef("report: no input (want an --out DIR, a summary JSON or a safety sweep's JSON)")
			}
			if out == "" {
				return exit.Usagef("report: -o/--out FILE is required (- for stdout)")
			}
			if err := output.CheckReport(cmd.OutOrStdout(), out, args); err != nil {
				return exit.UsageError{Err: lab.OutputError(err)}
			}
			err := output.WriteReport(cmd.OutOrStdout(), out, title, time.Now(), args)
			if e := new(output.Error); errors.As(err, &e) && e.Dest == "report" {
				return exit.UsageError{Err: err}
			}
			return lab.OutputError(err)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the HTML page to FILE (- for stdout)")
	cmd.Flags().StringVar(&title, "title", "", "page title (default \"lockbench report\")")
	return cmd
}
