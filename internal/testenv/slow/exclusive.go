package slow

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Exclusive holds the machine-wide lock called name for the rest of tb: a
// test that uses what a machine has only one of (the system's service on a
// fixed port, apt's package lists) waits for any other test holding it,
// whichever suite or checkout that test runs from, instead of both tearing
// at it. Like a CPU slot it is a flock the kernel frees when the process
// ends; where it cannot be taken the test runs without it.
func Exclusive(tb testing.TB, name string) {
	tb.Helper()
	dir := filepath.Join(os.TempDir(), "lockbench-test-exclusive-"+name)
	release, err := takeSlot(context.Background(), dir, 1, 50*time.Millisecond)
	if err != nil {
		tb.Logf("slow: no %s lock (%v); running without it", name, err)
		return
	}
	tb.Cleanup(release)
}
