package main

import (
	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/internal/flagtag/help"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/render"
)

// helpWidth is the widest line of any command's help.
const helpWidth = 100

// helpGroups are the flag groups of the help, in the order shown after a
// command's own (compare's matrix, gate's thresholds), placed by the JSON
// path of the field a flag sets: the config's layout is the grouping.
var helpGroups = help.Groups{
	Order: []string{"Workload", "Servers", "Backend", "Client tuning", "Faults", "Output"},
	ByField: []help.Prefix{
		{Prefix: "workload.", Group: "Workload"},
		{Prefix: "topology.", Group: "Servers"},
		{Prefix: "driver.client_tuning.", Group: "Client tuning"},
		{Prefix: "driver.multiplex.", Group: "Client tuning"},
		{Prefix: "driver.", Group: "Backend"},
		{Prefix: "faults", Group: "Faults"},
	},
	// the flags, of any command, that say where and how results are
	// written and shown
	ByName: map[string]string{
		"json": "Output", "out": "Output", "format": "Output", "wide": "Output", "quiet": "Output",
		"metrics-addr": "Output", "cpuprofile": "Output", "allow-failures": "Output", "force": "Output",
		"title": "Output", "help": "Output", "version": "Output",
	},
}

// setHelp gives root and every command below it lockbench's help: each
// command's account of how it works is a topic of its own (formats is the
// registered output formats).
func setHelp(root *cobra.Command) {
	help.Help{
		Width:  helpWidth,
		Wrap:   render.Wrap,
		Groups: helpGroups,
		Topics: map[string]string{
			"run": "measuring", "compare": "answers", "sweep": "capacity", "gate": "gating",
			"scenario": "scenarios", "merge": "merging", "report": "reports", "delay": "delay-line",
		},
		Extra: []*cobra.Command{{Use: "formats", Short: "what --format prints", Long: "--format " + output.FormatHelp()}},
		Examples: map[string]string{
			"help": "  lockbench help run\n  lockbench help answers     # how compare ranks and answers",
			"completion": "  source <(lockbench completion bash)\n" +
				"  lockbench completion zsh > \"${fpath[1]}/_lockbench\"",
			"completion bash":       "  source <(lockbench completion bash)",
			"completion zsh":        "  source <(lockbench completion zsh)",
			"completion fish":       "  lockbench completion fish | source",
			"completion powershell": "  lockbench completion powershell | Out-String | Invoke-Expression",
		},
	}.Install(root)
}
