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
		Long: `report renders one or more --out directories (or summary JSON files) as a
single HTML file that needs no network to view: a strategy comparison, the
latency distribution of every op on HdrHistogram's 1/(1-p) percentile axis,
throughput and p99 over time (from the .hlog files), the capacity sweep
when the directory holds one, and the config and versions of every input.`,
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
