package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results"
)

func init() { extraCommands = append(extraCommands, newGateCmd) }

func newGateCmd() *cobra.Command {
	var (
		baselines, thresholds []string
		count                 int
		format                string
	)
	opt := results.DefaultGateOptions()
	cmd := &cobra.Command{
		Use:   "gate SUMMARY|DIR...",
		Short: "CI gate: check runs against thresholds and a baseline; exit 1 on a regression",
		Long: `gate reads summaries (summary.json files, or --out directories) of the
current build and checks every run in them:

  --threshold 'cycle.p99<2ms'      k6-style checks over the summary's JSON
  --threshold 'cycles_per_s>20000' fields (latencies in µs, or with a unit);
  --threshold 'violations==0'      'GLOB:expr' limits one to matching runs

  --baseline B.json                compares each run by name with the baseline:
                                   fails when cycles/s drops more than
                                   --throughput-tol or p99 of --op rises more
                                   than --latency-tol

Repeated runs of one name (several files, e.g. from --count N runs of
compare) are samples: the gate compares their medians and fails only when
the change is beyond the tolerance AND a Mann-Whitney U test finds it
significant at --alpha. With 3 runs a side no p-value can go below 0.1,
so the test needs at least 4 a side for α = 0.05 (5 is better); with fewer
the medians against the tolerance decide alone.

Refused as bad input: a NaN, infinite or negative tolerance, an --op that
is unknown or (with --baseline) that a run on either side never measured,
a summary without runs, a run with negative or non-finite values.

Exit status: 0 pass, 1 regression or threshold breach, 2 bad input.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("gate: no summaries given (want SUMMARY.json or an --out DIR)")
			}
			md := false
			switch format {
			case "table":
			case "md", "markdown":
				md = true
			default:
				return usagef("--format %q: want table or md", format)
			}
			if count < 1 {
				return usagef("--count %d: must be at least 1", count)
			}
			if err := checkGateFlags(opt); err != nil {
				return err
			}
			if len(thresholds) == 0 && len(baselines) == 0 {
				return usagef("gate: nothing to check: give --threshold and/or --baseline")
			}
			for _, expr := range thresholds {
				t, err := results.ParseThreshold(expr)
				if err != nil {
					return usagef("--threshold %q: %v", expr, err)
				}
				opt.Thresholds = append(opt.Thresholds, t)
			}
			// With a baseline, every run on both sides must have measured
			// the compared op: a p99 of nothing passes any comparison.
			op := ""
			if len(baselines) > 0 {
				op = opt.LatencyOp
			}
			var first firstConfig
			cur, err := loadRuns(cmd.ErrOrStderr(), "summary", args, count, op, &first)
			if err != nil {
				return err
			}
			var base []results.Run
			if len(baselines) > 0 {
				if base, err = loadRuns(cmd.ErrOrStderr(), "--baseline", baselines, count, op, &first); err != nil {
					return err
				}
			}
			res := results.Gate(cur, base, opt)
			if err := results.WriteGate(cmd.OutOrStdout(), res, md); err != nil {
				return err
			}
			if res.Failed {
				var failed []string
				for _, r := range res.Rows {
					if !r.Pass {
						failed = append(failed, r.Run+" "+r.Check)
					}
				}
				return exitError{code: exitFailure, msg: "gate failed: " + strings.Join(failed, "; ")}
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&thresholds, "threshold", nil, "check METRIC OP VALUE, e.g. 'cycle.p99<2ms' (repeatable)")
	fs.StringArrayVar(&baselines, "baseline", nil, "baseline summary.json or --out DIR (repeatable: repeated runs are samples)")
	fs.IntVar(&count, "count", 1, "require at least N runs of every run name on each side (medians + Mann-Whitney when N>1)")
	fs.Float64Var(&opt.ThroughputTol, "throughput-tol", opt.ThroughputTol, "tolerated relative drop of cycles/s vs the baseline")
	fs.Float64Var(&opt.LatencyTol, "latency-tol", opt.LatencyTol, "tolerated relative rise of p99 vs the baseline")
	fs.StringVar(&opt.LatencyOp, "op", opt.LatencyOp, "op whose p99 is compared with the baseline: acquire|acquire_total|release|cycle|extend")
	fs.Float64Var(&opt.Alpha, "alpha", opt.Alpha, "significance level of the Mann-Whitney U test")
	fs.StringVar(&format, "format", "table", "output: table|md (markdown, for CI job summaries)")
	return cmd
}

// firstConfig is the config of the first summary read, to compare the rest with.
type firstConfig struct {
	raw  json.RawMessage
	path string
}

// loadRuns reads the runs of every summary (a file or an --out dir),
// refuses a summary without runs, a run with impossible values and (op set)
// a run that never measured op, and checks each run name has at least
// count samples.
func loadRuns(stderr io.Writer, what string, paths []string, count int, op string, first *firstConfig) ([]results.Run, error) {
	var runs []results.Run
	seen := map[string]string{} // run identity → the summary it was read from
	for _, p := range paths {
		s, err := readSummaryPath(p)
		if err != nil {
			return nil, usagef("%s %q: %v", what, p, err)
		}
		// The same run given twice (in two files) would count as two
		// agreeing samples.
		for _, r := range s.Runs {
			if prev, ok := seen[results.RunID(s, r)]; ok {
				return nil, usagef("%s %q: run %q is the same run as in %q (repeated runs are samples: give distinct runs)", what, p, r.Name, prev)
			}
		}
		for _, r := range s.Runs {
			seen[results.RunID(s, r)] = p
		}
		if len(s.Runs) == 0 {
			return nil, usagef("%s %q: the summary has no runs to judge", what, p)
		}
		for _, r := range s.Runs {
			if err := results.CheckRun(r); err != nil {
				return nil, usagef("%s %q: run %q: %v", what, p, r.Name, err)
			}
			if op != "" && !results.Measured(r, op) {
				return nil, usagef("--op %s: %s %q: run %q never measured %s latency", op, what, p, r.Name, op)
			}
		}
		// Comparing runs of different configs (durations, workers, masters)
		// is allowed but rarely meant: say so.
		if first.raw == nil {
			first.raw, first.path = s.Config, p
		} else if !results.SameConfig(first.raw, s.Config) {
			fmt.Fprintf(stderr, "lockbench: warning: %s %q was measured with a different config than %q\n", what, p, first.path)
		}
		if s.Interrupted {
			fmt.Fprintf(stderr, "lockbench: warning: %s %q was interrupted; its numbers cover part of the run\n", what, p)
		}
		runs = append(runs, s.Runs...)
	}
	n := map[string]int{}
	for _, r := range runs {
		n[r.Name]++
	}
	for name, c := range n {
		if c < count {
			return nil, usagef("--count %d: %s has %d run(s) of %q", count, what, c, name)
		}
	}
	return runs, nil
}

// readSummaryPath reads a summary file, or DIR/summary.json.
func readSummaryPath(p string) (*results.Summary, error) {
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		p = filepath.Join(p, "summary.json")
	}
	return results.ReadSummary(p)
}

// checkGateFlags refuses settings no verdict can be made with: a NaN
// tolerance compares false with everything, so it would pass any change.
func checkGateFlags(opt results.GateOptions) error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"--throughput-tol", opt.ThroughputTol}, {"--latency-tol", opt.LatencyTol}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) || f.v < 0 {
			return usagef("%s %v: want a finite tolerance of 0 or more (0.10 = 10 %%)", f.name, f.v)
		}
	}
	if !(opt.Alpha > 0 && opt.Alpha < 1) {
		return usagef("--alpha %v: want a value in (0, 1)", opt.Alpha)
	}
	if !results.KnownOp(opt.LatencyOp) {
		return usagef("--op %q: want one of %s", opt.LatencyOp, results.OpNames())
	}
	return nil
}
