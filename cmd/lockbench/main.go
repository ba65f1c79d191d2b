// Command lockbench benchmarks and load-tests distributed locks: Redlock over
// N real Redis masters through several multiplexing strategies, beside etcd
// and the popular Go lock libraries.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/lockbench/lockbench/compose"

	"github.com/lockbench/lockbench/cmd/lockbench/internal/heapgoal"
	"github.com/lockbench/lockbench/internal/clientlog"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/flagtag/help"
	"github.com/lockbench/lockbench/results/redact"
	"github.com/lockbench/lockbench/workloads/lab"

	"github.com/spf13/cobra"
)

func main() {
	compose.ServeIfChild() // compose re-executes lockbench as each etcd member and delay line
	clientlog.Quiet()
	heapgoal.Set()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, restore the default so a second one ends
		// lockbench at once (its servers die with it: parent-death signal).
		<-ctx.Done()
		stop()
	}()
	os.Exit(execute(ctx, os.Args[1:]))
}

func execute(ctx context.Context, args []string) int {
	return executeIO(ctx, args, os.Stdout, os.Stderr)
}

// executeIO runs lockbench with cobra's output (help, --version, the
// commands that write to cmd.OutOrStdout) and the final error line sent to
// stdout and stderr, so tests run commands in-process.
//
// Every secret lockbench learns (passwords given or generated) is masked
// in both streams, and the final error line has every password it may
// quote masked (redact.String): a stream is the last place to catch one.
func executeIO(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	stdout, stderr = redact.Writer(stdout), redact.Writer(stderr)
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	code, line := exit.Status(root.ExecuteContext(ctx), lab.FlagsNamed)
	if line != "" {
		fmt.Fprintln(stderr, "lockbench:", redact.String(line))
	}
	return code
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "lockbench",
		Short:         "Benchmark and load-test distributed locks (Redlock, etcd, peers) on real servers",
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE:          func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
		Version:       version(),
		Example: `  lockbench compare                   # every client × strategy, 5 local masters, ~2 min
  lockbench run --client rueidis --workload contended
  lockbench sweep --slo 2ms           # the load where p99 passes 2 ms
  lockbench gate runs/ --baseline main.json`,
		// mistyped commands and flags are answered with the names within
		// this edit distance (help.SuggestFlag)
		SuggestionsMinimumDistance: 2,
	}
	root.SetVersionTemplate("lockbench {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return exit.UsageError{Err: help.SuggestFlag(c, err)} })
	for _, c := range commands {
		root.AddCommand(c())
	}
	setHelp(root)
	return root
}

// commands are lockbench's subcommands, one file each.
var commands = []func() *cobra.Command{
	newRunCmd, newCompareCmd, newSweepCmd, newScenarioCmd, newSafetyCmd, // measure
	newGateCmd, newMergeCmd, newReportCmd, // judge and combine results
	newWorkloadsCmd, // list
	newDelayCmd,     // a tool for labs of one's own
}

// noArgs rejects positional arguments (and so unknown subcommands) as usage errors.
func noArgs(cmd *cobra.Command, args []string) error {
	if err := help.NoArgs(cmd, args); err != nil {
		return exit.UsageError{Err: err}
	}
	return nil
}
