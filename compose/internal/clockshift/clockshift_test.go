package clockshift

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func library(t *testing.T) string {
	t.Helper()
	lib, err := Library(context.Background())
	if errors.Is(err, errNoCompiler) {
		t.Fatal(err) // make deps-all installs gcc: a missing compiler is a broken setup, not a skip
	}
	if err != nil {
		t.Fatal(err)
	}
	return lib
}

// wallClockOf runs date(1) under c and returns what it printed minus the
// real time around it.
func wallClockOf(t *testing.T, c *Clock) time.Duration {
	t.Helper()
	cmd := exec.Command("date", "+%s%N")
	cmd.Env = append(os.Environ(), c.Env()...)
	before := time.Now()
	out, err := cmd.Output()
	after := time.Now()
	if err != nil {
		t.Fatal(err)
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	mid := before.Add(after.Sub(before) / 2)
	return time.Unix(0, ns).Sub(mid)
}

func TestShiftMovesTheWallClock(t *testing.T) {
	lib := library(t)
	c, err := New(lib, filepath.Join(t.TempDir(), "clock"))
	if err != nil {
		t.Fatal(err)
	}
	const slack = 2 * time.Second // process start on a busy machine
	for _, step := range []struct {
		op   string
		d    time.Duration
		want time.Duration
	}{
		{"set", 0, 0},
		{"set", time.Hour, time.Hour},
		{"jump", 30 * time.Minute, 90 * time.Minute},
		{"jump", -2 * time.Hour, -30 * time.Minute},
		{"set", -5 * time.Second, -5 * time.Second},
	} {
		if step.op == "set" {
			err = c.Set(step.d)
		} else {
			err = c.Jump(step.d)
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.Offset() != step.want {
			t.Errorf("%s %v: Offset %v, want %v", step.op, step.d, c.Offset(), step.want)
		}
		if got := wallClockOf(t, c); got < step.want-slack || got > step.want+slack {
			t.Errorf("%s %v: date(1) is off by %v, want %v", step.op, step.d, got, step.want)
		}
	}
}

func TestWithoutFileTheClockIsReal(t *testing.T) {
	lib := library(t)
	c := &Clock{lib: lib, path: filepath.Join(t.TempDir(), "missing")}
	if got := wallClockOf(t, c); got < -2*time.Second || got > 2*time.Second {
		t.Errorf("no offset file: off by %v, want ~0", got)
	}
}

func TestLibraryIsCached(t *testing.T) {
	a, b := library(t), library(t)
	if a != b {
		t.Errorf("two builds: %s, %s", a, b)
	}
	if _, err := os.Stat(a); err != nil {
		t.Error(err)
	}
}
