package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// asLockbench, set in a child's environment, makes this test binary run
// lockbench's main: the few tests that need lockbench as a separate process
// (signals, orphans, SIGKILL, parent death) re-execute the test binary
// instead of building one.
const asLockbench = "LOCKBENCH_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		// In-process commands that start etcd re-execute this test binary
		// as each member (compose/internal/etcdmember), and the delay line as itself.
		Children: []func(){serveAsLockbench, compose.ServeIfChild},
		// Most parallel tests here wait — on faults timed over seconds, on
		// signals, on ZooKeeper, PostgreSQL and etcd starting — and run
		// alongside each other; those that drive servers flat out take a CPU
		// slot (cpuBound).
		Waiting: 6,
		After:   closePair,
	})
}

// serveAsLockbench runs lockbench's main in a child started with asLockbench.
func serveAsLockbench() {
	if os.Getenv(asLockbench) == "1" {
		main()
		os.Exit(0)
	}
}

// cpuBound holds a machine-wide CPU slot (slow.CPU) for the rest of t:
// the tests that keep every worker busy through a short window (cells of
// 200 ms to 2 s whose counts must not be zero), and the fault runs on
// ZooKeeper (a JVM starting), run one per CPU, here and in every other
// package go test runs at once: a window starved of CPU by a third one
// measures nothing. The tests that wait overlap them. Call it after
// t.Parallel, in a test without parallel subtests.
func cpuBound(t *testing.T) {
	t.Helper()
	slow.CPU(t)
}

// lockbenchCmd is lockbench as a separate process (this test binary
// re-executed as main).
func lockbenchCmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), asLockbench+"=1")
	return cmd
}

// cli runs lockbench in-process with args and returns stdout, stderr and
// the exit code; at timeout its context is canceled (exit 130).
func cli(t *testing.T, timeout time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(timeout))
	defer cancel()
	stdout, stderr, code := runIn(ctx, args...)
	if ctx.Err() != nil {
		t.Errorf("lockbench %v: timed out after %v", args, slow.D(timeout))
	}
	return stdout, stderr, code
}

// loadTolerant are flags for runs whose subject is not timeouts: the
// default 50 ms --node-timeout scaled for the machine's load (internal/testenv/slow),
// kept under a third of ttl. Under load a 50 ms timeout fails the first
// attempts, whose late SETs then hold the keys for the whole TTL.
func loadTolerant(ttl time.Duration) []string {
	return []string{"--node-timeout", slow.NodeTimeout(50*time.Millisecond, ttl).String()}
}

// readJSON decodes the JSON file at path into v.
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
