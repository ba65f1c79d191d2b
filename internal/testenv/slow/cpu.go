package slow

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// CPUSlotsDir is where the machine-wide CPU slots are: one lock file per
// CPU, shared by every test binary go test runs at once (-p).
var CPUSlotsDir = filepath.Join(os.TempDir(), "lockbench-test-cpu-slots")

// CPU holds one of the machine's CPU slots for the rest of tb: at most one
// test per CPU that drives servers flat out (a short window whose counts
// must not be zero, a CPU-time measurement) runs at a time, whichever
// package it is in, so that go test may run more packages at once (-p)
// for the tests that only wait. Call it after t.Parallel. A slot is a
// flock on a file: the kernel frees it when the process ends, however it
// ends. Where slots cannot be taken (no writable temp dir) the test runs
// without one.
func CPU(tb testing.TB) {
	tb.Helper()
	release, err := takeSlot(context.Background(), CPUSlotsDir, runtime.NumCPU(), 20*time.Millisecond)
	if err != nil {
		tb.Logf("slow: no CPU slot (%v); running without one", err)
		return
	}
	tb.Cleanup(release)
}

// takeSlot locks one of n slot files under dir, trying each in turn every
// poll until one is free or ctx ends; release unlocks it.
func takeSlot(ctx context.Context, dir string, n int, poll time.Duration) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	files := make([]*os.File, 0, n)
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	for i := range max(n, 1) {
		f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("slot%d", i)), os.O_CREATE|os.O_RDWR, 0o666)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		for i, f := range files {
			err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
			if err == nil {
				files = append(files[:i], files[i+1:]...) // kept open: closing it unlocks
				return func() { f.Close() }, nil
			}
			if err != syscall.EWOULDBLOCK {
				return nil, err
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
