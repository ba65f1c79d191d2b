package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/workloads/flagtag"
)

func newGateCmd() *cobra.Command {
	// The gate's options and inputs; the summaries are the arguments.
	var in struct {
		gate.Options
		Thresholds []string `flag:"threshold,array" help:"check METRIC OP VALUE, e.g. 'cycle.p99<2ms' (repeatable)"`
		Baseline   []string `flag:"baseline,array" help:"baseline summary.json or --out DIR (repeatable: repeated runs are samples)"`
		Count      int      `flag:"count" help:"require at least N runs of every run name on each side (medians + Mann-Whitney when N>1)"`
		Format     string   `flag:"format" help:"output: table|md (markdown, for CI job summaries)"`
	}
	in.Options, in.Count, in.Format = gate.DefaultOptions(), 1, "table"
	var flags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "gate SUMMARY|DIR...",
		Short: "CI gate: check runs against thresholds and a baseline; exit 1 on a regression",
		Long: gate.Help + `

Exit status: 0 pass, 1 regression or threshold breach, 2 bad input.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("gate: no summaries given (want SUMMARY.json or an --out DIR)")
			}
			md := false
			switch in.Format {
			case "table":
			case "md", "markdown":
				md = true
			default:
				return usagef("--format %q: want table or md", in.Format)
			}
			if in.Count < 1 {
				return usagef("--count %d: must be at least 1", in.Count)
			}
			if err := in.Options.Validate(); err != nil {
				return gateUsage(err, flags)
			}
			if len(in.Thresholds) == 0 && len(in.Baseline) == 0 {
				return usagef("gate: nothing to check: give --threshold and/or --baseline")
			}
			ts, err := gate.ParseThresholds(in.Thresholds)
			if err != nil {
				return gateUsage(err, flags)
			}
			opt := in.Options
			opt.Thresholds = append(opt.Thresholds, ts...)
			input, err := gate.ReadInput(args, in.Baseline, in.Count)
			if err != nil {
				return gateUsage(err, flags)
			}
			v, err := gate.Check(input, opt)
			if err != nil {
				return gateUsage(err, flags)
			}
			for _, w := range v.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "lockbench: warning:", w.Name(gateFlag(flags)))
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
	flags = flagtag.New(cmd.Flags()).Bind(&in)
	return cmd
}

// gateFlag names the flag of a gate option or input field; the current
// summaries are the arguments.
func gateFlag(flags *flagtag.Set) func(field string) string {
	return func(field string) string {
		if field == "Current" {
			return "summary"
		}
		return flags.Flag(field)
	}
}

// gateUsage is a gate error as bad input naming the flag.
func gateUsage(err error, flags *flagtag.Set) error {
	var fe *gate.FieldError
	if errors.As(err, &fe) {
		return usagef("%s", fe.Name(gateFlag(flags)))
	}
	return usagef("gate: %v", err)
}
