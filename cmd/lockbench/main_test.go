package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose/etcdmember"
)

// lockbenchBin is the binary built once for the CLI tests: they run it as a
// user would, as a separate process.
var lockbenchBin string

func TestMain(m *testing.M) {
	// In-process commands that start etcd re-execute this test binary as
	// each member (compose/etcdmember): serve it before anything else.
	etcdmember.ServeIfChild()
	dir, err := os.MkdirTemp("", "lockbench-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	lockbenchBin = filepath.Join(dir, "lockbench")
	out, err := exec.Command("go", "build", "-race", "-o", lockbenchBin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build lockbench: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cli runs lockbench with args and returns stdout, stderr and the exit code.
func cli(t *testing.T, timeout time.Duration, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, lockbenchBin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("lockbench %v: %v", args, err)
	}
	return stdout.String(), stderr.String(), code
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
