package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results/gate"
)

func newGateCmd() *cobra.Command {
	var (
		baselines, thresholds []string
		count                 int
		format                string
	)
	opt := gate.DefaultOptions()
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
			if err := opt.Validate(); err != nil {
				return gateUsage(err)
			}
			if len(thresholds) == 0 && len(baselines) == 0 {
				return usagef("gate: nothing to check: give --threshold and/or --baseline")
			}
			ts, err := gate.ParseThresholds(thresholds)
			if err != nil {
				return gateUsage(err)
			}
			opt.Thresholds = append(opt.Thresholds, ts...)
			in, err := gate.ReadInput(args, baselines, count)
			if err != nil {
				return gateUsage(err)
			}
			v, err := gate.Check(in, opt)
			if err != nil {
				return gateUsage(err)
			}
			for _, w := range v.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "lockbench: warning:", w.Name(gateFlag))
			}
			if err := gate.Write(cmd.OutOrStdout(), v, md); err != nil {
				return err
			}
			if v.Failed {
				return exitError{code: exitFailure, msg: "gate failed: " + strings.Join(v.FailedChecks(), "; ")}
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

// gateFlag names the gate option or input field a gate error is about.
func gateFlag(field string) string {
	return map[string]string{"ThroughputTol": "--throughput-tol", "LatencyTol": "--latency-tol", "Alpha": "--alpha",
		"LatencyOp": "--op", "Count": "--count", "Thresholds": "--threshold", "Current": "summary", "Baseline": "--baseline"}[field]
}

// gateUsage is a gate error as bad input naming the flag.
func gateUsage(err error) error {
	var fe *gate.FieldError
	if errors.As(err, &fe) {
		return usagef("%s", fe.Name(gateFlag))
	}
	return usagef("gate: %v", err)
}
