package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// TestNoProgressExitStatus: a run that grants nothing in its window (every
// holder inside an hour-long hold; a 1 ns window) is not a result: it
// exits with the no-progress status with a warning naming why, its JSON says so (unfinished cycles
// with their wait), and --allow-failures accepts it (exit 0, same JSON).
func TestNoProgressExitStatus(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"hold 1h", []string{"--hold", "1h", "--warmup", "300ms", "--duration", "700ms"}, "no lock was granted"},
		{"1ns window", []string{"--warmup", "0s", "--duration", "1ns"}, "no lock was granted"},
	} {
		for _, allow := range []bool{false, true} {
			out := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+map[bool]string{true: "-allowed"}[allow]+".json")
			args := append([]string{"run", "--masters", "1", "--workers", "2", "--json", out}, c.args...)
			if allow {
				args = append(args, "--allow-failures")
			}
			_, stderr, code := cli(t, time.Minute, args...)
			want := map[bool]int{false: exit.NoProgress, true: exit.OK}[allow]
			if code != want {
				t.Fatalf("%s (allow %v): exit %d, want %d\n%s", c.name, allow, code, want, stderr)
			}
			if !strings.Contains(stderr, "WARNING") || !strings.Contains(stderr, c.want) {
				t.Errorf("%s: stderr %q: no warning saying %q", c.name, stderr, c.want)
			}
			var sum schema.Summary
			readJSON(t, out, &sum)
			r := sum.Runs[0]
			if !r.NoGrant() || len(r.Failures()) == 0 {
				t.Errorf("%s: JSON run %+v: not marked as without a grant", c.name, r.Counts)
			}
			if c.name == "hold 1h" && (r.Unfinished == nil || r.Unfinished.Holding != 2 || r.Unfinished.MaxWaitUS < 700e3) {
				t.Errorf("%s: unfinished %+v: want both workers' cycles, held through the window", c.name, r.Unfinished)
			}
		}
	}
}
