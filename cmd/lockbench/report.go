package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/capacity"
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
			rep := &results.Report{Title: title, Generated: time.Now().UTC().Truncate(time.Second)}
			for _, a := range args {
				if err := addReportInput(rep, a); err != nil {
					return usagef("report %q: %v", a, err)
				}
			}
			if rep.Title == "" {
				rep.Title = "lockbench report"
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

// addReportInput adds a directory (summary.json, .hlog files, sweep.json)
// or a summary file (with the .hlog files beside it, if any).
func addReportInput(rep *results.Report, path string) error {
	dir := path
	if st, err := os.Stat(path); err != nil {
		return err
	} else if !st.IsDir() {
		if filepath.Base(path) != "summary.json" {
			s, err := results.ReadSummary(path)
			if err != nil {
				return err
			}
			rep.AddSource(path, s, nil)
			return nil
		}
		dir = filepath.Dir(path)
	}
	d, err := results.ReadRunDir(dir)
	if err != nil {
		return err
	}
	sw, err := capacity.Read(dir)
	if err != nil {
		return err
	}
	rep.AddSource(path, d.Summary, d.Logs)
	for _, w := range sw {
		rep.Sweeps = append(rep.Sweeps, w)
	}
	return nil
}
