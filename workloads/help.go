package workloads

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"
)

// pacingModes describes the closed and open loop in the words of their flags
// (Config's tags).
var pacingModes = map[string]string{
	"--rate 0": "closed loop: each worker starts its next cycle when the last one ends",
	"--rate R": "open loop: R cycles/s on a fixed schedule; latency from the intended start, service time kept apart, missed starts counted",
	"--ramp D": "rate (closed loop: workers) rises linearly over D, inside the warmup",
}

// WriteHelp lists the workloads (--workload), the hold-time distributions
// (--hold-dist) and the pacing modes, each with what it does.
func WriteHelp(out io.Writer) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	section := func(title string, m map[string]string) {
		fmt.Fprintln(w, title)
		names := slices.Sorted(maps.Keys(m))
		for _, n := range names {
			fmt.Fprintf(w, "  %s\t%s\n", n, m[n])
		}
		fmt.Fprintln(w)
	}
	section("Workloads (--workload):", Generators())
	section("Hold-time distributions (--hold-dist, mean --hold):", holdDists)
	section("Pacing:", pacingModes)
	return w.Flush()
}
