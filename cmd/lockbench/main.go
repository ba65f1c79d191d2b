// Command lockbench benchmarks and load-tests distributed locks: Redlock over
// N real Redis masters through several multiplexing strategies, beside etcd
// and the popular Go lock libraries.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/lockbench/lockbench/compose"

	"github.com/lockbench/lockbench/cmd/lockbench/internal/heapgoal"
	"github.com/lockbench/lockbench/internal/clientlog"
	"github.com/lockbench/lockbench/internal/flagtag/help"
	"github.com/lockbench/lockbench/results/redact"

	"github.com/spf13/cobra"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the run failed, or a gate found a regression
	exitUsage   = 2 // bad input: nothing was started or written
	// exitInconclusive: a gate could not decide (too few or too noisy
	// samples); neither a pass nor a regression.
	exitInconclusive = 3
	// exitNoProgress: a run measured no progress: no grant, no completed
	// cycle, or a stall (--allow-failures accepts it).
	exitNoProgress  = 4
	exitInterrupted = 130
)

// usageError is bad input: one line naming the flag and value, exit 2.
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }
func (usageError) ExitCode() int   { return exitUsage }

// exitCoder is an error that chooses lockbench's exit status: bad input,
// a gate's verdict, a scenario measured otherwise than expected.
type exitCoder interface {
	error
	ExitCode() int
}

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// errInterrupted: the run was stopped by a signal after writing what it had.
var errInterrupted = errors.New("interrupted")

// errInterruptedEarly: a signal came before anything was measured (servers
// starting, a driver dialing) or before a command that writes all at the end
// had written; nothing was written.
var errInterruptedEarly = errors.New("interrupted before anything was written")

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
	err := root.ExecuteContext(ctx)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInterruptedEarly):
		// Not "before anything was measured": a scenario or a compare that
		// writes at its end may have measured for a while.
		fmt.Fprintln(stderr, "lockbench: interrupted before any result was written; nothing was written")
		return exitInterrupted
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, "lockbench: interrupted; what was measured has been written")
		return exitInterrupted
	}
	code := exitFailure
	var ec exitCoder
	if errors.As(err, &ec) {
		code = ec.ExitCode()
	}
	if msg := oneLine(flagsNamed(err)); msg != "" {
		fmt.Fprintln(stderr, "lockbench:", redact.String(msg))
	}
	return code
}

// exitError ends lockbench with a chosen status (gate verdicts).
type exitError struct {
	code int
	msg  string
}

func (e exitError) Error() string { return e.msg }
func (e exitError) ExitCode() int { return e.code }

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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{help.SuggestFlag(c, err)} })
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
		return usageError{err}
	}
	return nil
}

// oneLine is an error message on one line: a driver's multi-line error
// (a server's banner, a wrapped list) joined with "; ".
func oneLine(msg string) string {
	lines := strings.FieldsFunc(msg, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(slices.DeleteFunc(lines, func(s string) bool { return s == "" }), "; ")
}
