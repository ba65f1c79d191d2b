package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// TestGeneratorsBadInput: --generators and its companions are checked
// before anything starts: one line naming the flag, exit 2.
func TestGeneratorsBadInput(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no coordination store", []string{"--generators", "2", "--generator-index", "0", "--redis", "127.0.0.1:1"}, "--coord"},
		{"index out of range", []string{"--generators", "2", "--generator-index", "2", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1"}, "--generator-index"},
		{"negative index", []string{"--generators", "2", "--generator-index", "-5", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1"}, "--generator-index -5: negative; must be 0 or more"},
		{"index -1", []string{"--generators", "2", "--generator-index", "-1", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1"}, "--generator-index -1: negative; must be 0 or more"},
		{"index not a number", []string{"--generators", "2", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1"}, "--generator-index"},
		{"masters started locally", []string{"--generators", "2", "--generator-index", "1", "--coord", "127.0.0.1:1"}, "--redis"},
		{"a backend without masters", []string{"--generators", "2", "--generator-index", "1", "--coord", "127.0.0.1:1", "--backend", "etcd", "--etcd", "127.0.0.1:1"}, "--generators"},
		{"threshold alone", []string{"--threshold", "cycle.p99<2ms"}, "--threshold"},
		{"bad threshold", []string{"--generators", "2", "--generator-index", "0", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1", "--threshold", "cycle.p99<<2"}, "--threshold"},
		{"coordination prefix with a slash", []string{"--generators", "2", "--generator-index", "0", "--coord", "127.0.0.1:1", "--redis", "127.0.0.1:1", "--coord-prefix", "a/b"}, "--coord-prefix"},
		{"coordination endpoint with credentials", []string{"--generators", "2", "--generator-index", "0", "--coord", "https://u:hunter2secretpw@127.0.0.1:1", "--redis", "127.0.0.1:1"}, "--coord"},
		{"coordination endpoint without a port", []string{"--generators", "2", "--generator-index", "0", "--coord", "127.0.0.1:notaport", "--redis", "127.0.0.1:1"}, "--coord"},
		{"coordination certificate without its key", []string{"--generators", "2", "--generator-index", "0", "--coord", "127.0.0.1:1", "--coord-cert", "/etc/hostname", "--redis", "127.0.0.1:1"}, "--coord-cert"},
		{"coordination CA not readable", []string{"--generators", "2", "--generator-index", "0", "--coord", "127.0.0.1:1", "--coord-cacert", "/nonexistent/ca.pem", "--redis", "127.0.0.1:1"}, "--coord-cacert"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			_, stderr, code := cli(t, 30*time.Second, append([]string{"run", "-q", "--out", out}, c.args...)...)
			if code != exit.Usage || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming %s", code, stderr, c.want)
			}
			if strings.Contains(stderr, "hunter2secretpw") {
				t.Errorf("stderr shows the password: %s", stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written", out)
			}
		})
	}
}

// TestGeneratorPlanMismatch: a generator started with another config than
// generator 0's is refused (exit 2), naming what differs, and generator 0
// stops saying so (exit 1) instead of waiting at the start.
func TestGeneratorPlanMismatch(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	lab := startGenLab(t, 1)
	out := t.TempDir()
	prefix := fmt.Sprintf("t%d", time.Now().UnixNano())
	first := startGenerator(t, lab, prefix, 2, 0, out, "-q", "--workers", "2", "--duration", "1s", "--coord-timeout", "5s")
	other := startGenerator(t, lab, prefix, 2, 1, out, "-q", "--workers", "3", "--duration", "1s", "--coord-timeout", "5s")
	waitGenerators(t, []*generatorProc{first, other}, time.Minute)
	if other.code != exit.Usage || !strings.Contains(other.stderr.String(), "workload.workers is 3 here, 2 at generator 0") {
		t.Errorf("generator 1 of another config: exit %d, want 2 naming workload.workers:\n%s", other.code, other.stderr)
	}
	if first.code != exit.Failure || !strings.Contains(first.stderr.String(), "generator 1 was refused: generators: this generator's config differs") {
		t.Errorf("generator 0: exit %d, want 1 saying generator 1 was refused:\n%s", first.code, first.stderr)
	}
}

// TestGeneratorInterrupted: Ctrl-C (or a pod's SIGTERM) on one generator
// stops the run for all: it writes what it measured and exits 130, the
// others stop too, saying why, and generator 0's summary names it.
func TestGeneratorInterrupted(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	lab := startGenLab(t, 1)
	out := t.TempDir()
	procs := startGenerators(t, lab, 3, out, "--workers", "2", "--warmup", "200ms", "--duration", "60s")
	procs[0].waitStderr(t, "generators: 3/3 reporting")
	if err := procs[1].cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waitGenerators(t, procs, time.Minute)
	if procs[1].code != exit.Interrupted {
		t.Errorf("interrupted generator: exit %d, want %d:\n%s", procs[1].code, exit.Interrupted, procs[1].stderr)
	}
	if _, err := schema.ReadSummary(filepath.Join(out, "gen-1", "summary.json")); err != nil {
		t.Errorf("the interrupted generator did not write what it measured: %v", err)
	}
	for _, p := range []*generatorProc{procs[0], procs[2]} {
		if p.code != exit.Failure || !strings.Contains(p.stderr.String(), "generator 1 was interrupted") {
			t.Errorf("generator %d: exit %d, want 1 naming generator 1:\n%s", p.index, p.code, p.stderr)
		}
	}
	_, rep := mergedReport(t, out)
	if rep.Aborted == nil || rep.Aborted.Generator != 1 || len(rep.Missing) != 1 || rep.Missing[0] != 1 {
		t.Errorf("summary: aborted %+v, missing %v; want generator 1 named", rep.Aborted, rep.Missing)
	}
}
