package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
)

func newMergeCmd() *cobra.Command {
	var (
		out   string
		force bool
		quiet bool
	)
	cmd := &cobra.Command{
		Use:   "merge DIR DIR... -o OUT",
		Short: "Merge runs measured at the same time (several machines or processes) from their .hlog files",
		Long: `merge combines --out directories of runs that drove the same masters at the
same time: each run's histograms are merged interval by interval from the
.hlog files (percentiles are never averaged), counts are summed, workers
added, and throughput is recomputed over the window all inputs were
measuring. OUT gets summary.json, config.json and merged .hlog files, so it
can be gated, reported or merged again.

An input is an --out directory (its summary.json) or exactly the summary
file named, with the .hlog files beside it.

Runs of different configs (the key prefix aside), or that did not overlap
in time, are refused unless --force. Always refused (exit 2): OUT equal to
or inside an input's directory, and the same run twice (same start time,
host and run name, whatever the path; a merged run remembers its inputs).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usagef("merge: want at least two run directories, got %d", len(args))
			}
			if out == "" {
				return usagef("merge: -o/--out DIR is required")
			}
			if err := output.CheckDir(out); err != nil {
				return usagef("--out %q: %v", out, err)
			}
			dirs, err := output.ReadMergeInputs(out, args)
			if err != nil {
				return usageError{flagError(err)}
			}
			sum, logs, err := results.Merge(dirs, force)
			if errors.Is(err, results.ErrConfigMismatch) || errors.Is(err, results.ErrNotConcurrent) || errors.Is(err, results.ErrDuplicateRun) {
				return usagef("merge: %v", err)
			}
			if err != nil {
				return err
			}
			if err := output.WriteMerged(out, sum, logs); err != nil {
				return flagError(err)
			}
			if !quiet {
				return results.WriteTable(cmd.OutOrStdout(), sum.Runs, results.TableOptions{})
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&out, "out", "o", "", "write the merged summary.json, config.json and .hlog files into DIR")
	fs.BoolVar(&force, "force", false, "merge runs of different configs, or runs that did not overlap in time")
	fs.BoolVarP(&quiet, "quiet", "q", false, "no table on stdout")
	return cmd
}
