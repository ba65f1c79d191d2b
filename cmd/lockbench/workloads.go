package main

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/workloads"
)

func newWorkloadsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "workloads",
		Short: "List the workloads (--workload), hold-time distributions (--hold-dist) and pacing modes",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return listWorkloads(cmd.OutOrStdout())
		},
	}
}

func listWorkloads(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	section := func(title string, m map[string]string) {
		fmt.Fprintln(w, title)
		names := make([]string, 0, len(m))
		for n := range m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "  %s\t%s\n", n, m[n])
		}
		fmt.Fprintln(w)
	}
	section("Workloads (--workload):", workloads.Generators())
	section("Hold-time distributions (--hold-dist, mean --hold):", workloads.HoldDists)
	section("Pacing:", map[string]string{
		"--rate 0": "closed loop: each worker starts its next cycle when the last one ends",
		"--rate R": "open loop: R cycles/s on a fixed schedule; latency from the intended start, service time kept apart, missed starts counted",
		"--ramp D": "rate (closed loop: workers) rises linearly over D, inside the warmup",
	})
	return w.Flush()
}
