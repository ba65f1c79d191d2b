package main

import (
	"bytes"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
)

func newReportCmd() *cobra.Command {
	var out, title string
	cmd := &cobra.Command{
		Use:   "report DIR|SUMMARY.json... -o report.html",
		Short: "Render runs as one self-contained HTML page (plots, config, versions)",
		Long:  output.ReportHelp,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("report: no input (want an --out DIR or a summary JSON)")
			}
			if out == "" {
				return usagef("report: -o/--out FILE is required (- for stdout)")
			}
			if err := checkOutputFile("--out", out); err != nil {
				return err
			}
			rep, err := output.ReadReport(title, time.Now(), args)
			if err != nil {
				return usagef("%v", err)
			}
			var buf bytes.Buffer
			if err := rep.WriteHTML(&buf); err != nil {
				return err
			}
			if out == "-" {
				_, err := cmd.OutOrStdout().Write(buf.Bytes())
				return err
			}
			if err := results.WriteFileAtomic(out, buf.Bytes()); err != nil {
				return fmt.Errorf("--out %q: %w", out, err)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the HTML page to FILE (- for stdout)")
	cmd.Flags().StringVar(&title, "title", "", "page title (default \"lockbench report\")")
	return cmd
}
