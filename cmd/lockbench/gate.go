package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag"
	"github.com/lockbench/lockbench/results/gate"
)

func newGateCmd() *cobra.Command {
	req := gate.NewRequest()
	var flags *flagtag.Set
	cmd := &cobra.Command{
		Use:   "gate SUMMARY|DIR...",
		Short: "CI gate: runs against thresholds and a baseline; exit 1 regressed, 3 inconclusive",
		Long:  gate.Help,
		Example: `  lockbench gate runs/ --threshold 'cycle.p99<2ms' --threshold 'violations==0'
  lockbench gate current.json --baseline main.json --latency-tol 0.2 --format md
  lockbench gate cur1.json cur2.json cur3.json cur4.json --baseline base/ --count 4`,
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Current = args
			if err := req.Validate(); err != nil {
				return gateUsage(err, flags)
			}
			var v gate.Verdict
			var err error
			if req.UntilDecided {
				v, err = req.Measure(cmd.Context(), func(rounds int, v gate.Verdict) {
					fmt.Fprintf(cmd.ErrOrStderr(), "lockbench gate: %d rounds: %s\n", rounds, v.Decision)
				})
			} else {
				v, err = gate.Run(req)
			}
			if err != nil {
				return gateUsage(err, flags)
			}
			for _, w := range v.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "lockbench: warning:", w.Name(gateFlag(flags)))
			}
			if err := gate.Write(cmd.OutOrStdout(), v, req.Markdown()); err != nil {
				return err
			}
			return v.Err()
		},
	}
	flags = flagtag.New(cmd.Flags()).Bind(&req)
	return cmd
}

// gateFlag names the flag of a gate option or input field; the current
// summaries are the arguments, and a field inside a summary ("runs[0].counts")
// is named as it is.
func gateFlag(flags *flagtag.Set) func(field string) string {
	return func(field string) string {
		if field == "Current" {
			return "summary"
		}
		if f := flags.Flag(field); f != "" {
			return f
		}
		return field
	}
}

// gateUsage is a gate error as bad input naming the flag.
func gateUsage(err error, flags *flagtag.Set) error {
	var fe *gate.FieldError
	switch {
	case errors.As(err, &fe):
		return exit.Usagef("%s", fe.Name(gateFlag(flags)))
	case errors.Is(err, gate.ErrNoSummaries):
		return exit.Usagef("%v (want SUMMARY.json or an --out DIR)", err)
	case errors.Is(err, gate.ErrNothingToCheck):
		return exit.Usagef("%v: give --threshold and/or --baseline", err)
	}
	return exit.Usagef("gate: %v", err)
}
