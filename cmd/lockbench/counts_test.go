package main

import (
	"bytes"
	"context"
	"github.com/lockbench/lockbench/internal/exit"
	"strings"
	"syscall"
	"testing"
	"time"
)

// huge is a count no machine can hold: 2^62.
const huge = "4611686018427387904"

// peakRSS runs lockbench with args as a process of its own: its exit
// code, stderr and peak RSS in KiB (the kernel's rusage).
func peakRSS(t *testing.T, args ...string) (int, string, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := lockbenchCmd(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		t.Fatal("no rusage")
	}
	return cmd.ProcessState.ExitCode(), stderr.String(), ru.Maxrss
}

// TestCountsBounded: every count a user types is refused above its stated
// maximum before anything is allocated or started: exit 2, one line naming
// the flag and the bound, and the process no bigger than when it refuses
// a count of 0 (peak RSS from the kernel, of a separate lockbench process;
// the baseline makes it hold under the race detector too).
func TestCountsBounded(t *testing.T) {
	_, _, base := peakRSS(t, "run", "--workers", "0")
	for _, args := range [][]string{
		{"run", "--workers", huge},
		{"run", "--keys", huge},
		{"run", "--masters", huge},
		{"run", "--backend", "etcd", "--etcd-members", huge},
		{"compare", "--repeat", huge},
		{"compare", "--masters", "1," + huge},
		{"sweep", "--max-steps", huge},
		{"sweep", "--repeat", huge},
		{"run", "--generator-index", "0", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1", "--generators", huge},
		{"compare", "--generator-index", "0", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1", "--generators", huge},
	} {
		flag := args[len(args)-2]
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stderr, rss := peakRSS(t, args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != exit.Usage || len(lines) != 1 || !strings.Contains(stderr, flag) {
				t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming %s", code, stderr, flag)
			}
			if !strings.Contains(stderr, "at most") && !strings.Contains(stderr, " to ") && !strings.Contains(stderr, "want 1, 3 or 5") {
				t.Errorf("stderr %q: want the bound stated", stderr)
			}
			if rss > base+base/4+16<<10 {
				t.Errorf("peak RSS %d MiB refusing %s, %d MiB refusing --workers 0: allocated before refusing", rss>>10, flag, base>>10)
			}
		})
	}
}
