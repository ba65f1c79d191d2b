package main

import (
	"bytes"
	"context"
	"errors"
	"github.com/lockbench/lockbench/internal/exit"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestSizesBounded: a size too large to serve (keys, batches, pools, rate)
// is refused before any server starts: exit 2, one line naming the flag and
// the limit, no stack trace, nothing left in the temp dir.
func TestSizesBounded(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"keys overflow", []string{"--workload", "contended", "--keys", "99999999999999"}, []string{"--keys", "10000000"}},
		{"keys 2e9", []string{"--workload", "zipf", "--keys", "2000000000"}, []string{"--keys", "10000000"}},
		{"keys uncontended", []string{"--keys", "2000000000"}, []string{"--keys", "10000000"}},
		{"batch", []string{"--mux", "pipeline", "--batch", "2147483647"}, []string{"--batch", "65536"}},
		{"goredis pool", []string{"--goredis-pool-size", "100000000"}, []string{"--goredis-pool-size", "10000"}},
		{"goredis auto batch", []string{"--goredis-auto-batch", "2147483647"}, []string{"--goredis-auto-batch", "65536"}},
		{"goredis auto concurrency", []string{"--goredis-auto-concurrency", "2147483647"}, []string{"--goredis-auto-concurrency", "1024"}},
		{"rate overflow", []string{"--rate", "1e19"}, []string{"--rate", "1e+09"}},
		{"rate infinite", []string{"--rate", "+Inf"}, []string{"--rate"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := lockbenchCmd(ctx, append([]string{"run", "--duration", "1s"}, c.args...)...)
			cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exit.Usage {
				t.Fatalf("%v: %v, want exit %d\n%s", c.args, err, exit.Usage, stderr.String())
			}
			msg := strings.TrimSpace(stderr.String())
			if strings.Contains(msg, "\n") || strings.Contains(msg, "goroutine") {
				t.Fatalf("stderr is not one line:\n%s", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%q: does not name %q", msg, w)
				}
			}
			if left, _ := os.ReadDir(tmp); len(left) > 0 {
				t.Errorf("left in the temp dir: %v", left)
			}
		})
	}
}
