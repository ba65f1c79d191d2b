// Package testenv is the one TestMain of lockbench's test binaries and the
// line between the two test tiers. Under -short (make test-unit) no server
// starts: Main sets compose's refusal variable, skips a package's shared
// servers, and Servers skips the tests that use them, naming why. Without
// -short (make test) the same tests run on real servers.
//
// It imports no package of the project, so every package's tests may use
// it, compose's own included; the servers a package shares are started by
// a Setup the package passes in (Start makes one from a start function).
// Only _test.go files and the test kit drivers/internal/drivertest
// import it.
package testenv

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// NoServersEnv is procs.NoServersEnv: set, every server start fails.
// (A test in this package holds the two equal.)
const NoServersEnv = "LOCKBENCH_NO_SERVERS"

// SetupTimeout bounds a package's Setup.
const SetupTimeout = time.Minute

// Needs is what a package's tests need from the environment.
type Needs struct {
	// Children are the serve-if-child hooks of the processes the tests
	// re-execute the test binary as (etcd members, delay lines). Each
	// returns at once in the parent and never in a child; they run first.
	Children []func()
	// Waiting lets that many parallel tests run at once where they mostly
	// wait on servers (slow.WaitingTests); 0 leaves go test's default.
	Waiting int
	// Setup starts what the package's tests share and returns how to stop
	// it; under -short it is not called and Servers skips. A failed Setup
	// exits 1 before any test runs.
	Setup func(ctx context.Context) (stop func(), err error)
	// Before runs after the flags are parsed, before the tests (a
	// process-wide setting such as silencing a client's logger).
	Before func()
	// After runs after the tests, before Setup's stop.
	After func()
}

// Main is a whole TestMain: it serves a re-executed child, parses the
// flags, starts what needs.Setup starts unless -short, runs the tests,
// stops it and exits with the tests' status.
func Main(m *testing.M, needs Needs) {
	os.Exit(run(m, needs))
}

func run(m *testing.M, needs Needs) int {
	for _, serve := range needs.Children {
		serve()
	}
	if !flag.Parsed() {
		flag.Parse()
	}
	if testing.Short() {
		os.Setenv(NoServersEnv, "1")
	}
	if needs.Waiting > 0 {
		slow.WaitingTests(needs.Waiting)
	}
	if needs.Before != nil {
		needs.Before()
	}
	if needs.Setup != nil && !testing.Short() {
		ctx, cancel := context.WithTimeout(context.Background(), slow.D(SetupTimeout))
		stop, err := needs.Setup(ctx)
		cancel()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer stop()
	}
	code := m.Run()
	if needs.After != nil {
		needs.After()
	}
	return code
}

// Servers skips tb under -short: it starts real servers, or uses those
// a package's Setup starts.
func Servers(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("starts real servers; not in the -short tier (make test runs it)")
	}
}

// Start is a Setup from a server's start function: use receives what
// started (to set the package's variables), and stop closes it.
func Start[S io.Closer](start func(context.Context) (S, error), use func(S)) func(context.Context) (func(), error) {
	return func(ctx context.Context) (func(), error) {
		s, err := start(ctx)
		if err != nil {
			return nil, err
		}
		use(s)
		return func() { _ = s.Close() }, nil
	}
}
