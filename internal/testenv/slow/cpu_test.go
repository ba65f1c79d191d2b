package slow

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestTakeSlot: n slots are taken by n holders, the next waits until one is
// released, and a holder that never gets one ends with its context.
func TestTakeSlot(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var held []func()
	for range 2 {
		release, err := takeSlot(ctx, dir, 2, time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, release)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := takeSlot(short, dir, 2, time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("third holder of 2 slots: err %v, want to wait until its context ends", err)
	}
	got := make(chan error, 1)
	go func() {
		release, err := takeSlot(ctx, dir, 2, time.Millisecond)
		if err == nil {
			release()
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("third holder got a slot while both were held (err %v)", err)
	case <-time.After(30 * time.Millisecond):
	}
	held[1]()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a released slot was not taken")
	}
	held[0]()
}

// TestCPUWithoutSlots: where no slot can be taken, CPU lets the test run.
func TestCPUWithoutSlots(t *testing.T) {
	old := CPUSlotsDir
	defer func() { CPUSlotsDir = old }()
	CPUSlotsDir = "/proc/lockbench-no-such-dir"
	CPU(t) // must not block or fail
}
