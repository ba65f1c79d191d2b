package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
)

func init() { extraCommands = append(extraCommands, newMergeCmd) }

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

Runs of different configs (the key prefix aside), or that did not overlap
in time, are refused unless --force.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usagef("merge: want at least two run directories, got %d", len(args))
			}
			if out == "" {
				return usagef("merge: -o/--out DIR is required")
			}
			if err := checkDir(out); err != nil {
				return usagef("--out %q: %v", out, err)
			}
			var dirs []*results.RunDir
			for _, a := range args {
				if st, err := os.Stat(a); err == nil && !st.IsDir() {
					a = filepath.Dir(a) // a summary.json: its directory
				}
				d, err := results.ReadRunDir(a)
				if err != nil {
					return usagef("merge %q: %v", a, err)
				}
				dirs = append(dirs, d)
			}
			sum, logs, err := results.Merge(dirs, force)
			if errors.Is(err, results.ErrConfigMismatch) || errors.Is(err, results.ErrNotConcurrent) {
				return usagef("merge: %v", err)
			}
			if err != nil {
				return err
			}
			if err := writeMerged(out, sum, logs); err != nil {
				return fmt.Errorf("--out %q: %w", out, err)
			}
			if !quiet {
				return results.WriteTable(os.Stdout, sum.Runs, results.TableOptions{})
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

func writeMerged(dir string, sum *results.Summary, logs map[string]results.RunLogs) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, l := range logs {
		for op, hs := range l {
			if err := results.WriteHlog(filepath.Join(dir, results.Slug(name)+"."+op+".hlog"), hs); err != nil {
				return err
			}
		}
	}
	return writeOutDir(dir, sum, nil)
}
