package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/procs"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// proc is lockbench as a separate process, its stderr kept line by line
// so a test can wait for a phase (a progress line) instead of sleeping.
type proc struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	eof   bool
}

// startProc starts lockbench with args as a separate process.
func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: lockbenchCmd(context.Background(), args...)}
	r, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
		}
		p.mu.Lock()
		p.eof = true
		p.mu.Unlock()
	}()
	return p
}

// waitLine waits until lockbench wrote a stderr line containing s.
func (p *proc) waitLine(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(slow.D(30 * time.Second))
	for {
		p.mu.Lock()
		lines, eof := strings.Join(p.lines, "\n"), p.eof
		p.mu.Unlock()
		if strings.Contains(lines, s) {
			return
		}
		if eof || time.Now().After(deadline) {
			t.Fatalf("lockbench never wrote %q on stderr (ended: %v):\n%s", s, eof, lines)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitChildren waits until lockbench has n children whose command line
// contains marker, and returns their pids.
func (p *proc) waitChildren(t *testing.T, marker string, n int) []int {
	t.Helper()
	deadline := time.Now().Add(slow.D(30 * time.Second))
	for {
		pids := procs.Children(p.cmd.Process.Pid, marker)
		if len(pids) == n {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d %s never came up (have %v)", n, marker, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startRun starts lockbench with args and waits until its 3 masters are up.
func startRun(t *testing.T, args ...string) (*proc, []int) {
	t.Helper()
	p := startProc(t, args...)
	return p, p.waitChildren(t, "redis-server", 3)
}

func waitGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(slow.D(10 * time.Second))
	for _, pid := range pids {
		for procs.Alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("redis-server pid %d orphaned", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// Ctrl-C mid-run: the summary of what was measured is written with
// interrupted=true, the masters are stopped, and the exit is 130.
func TestInterruptWritesSummaryAndStopsServers(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	out := filepath.Join(t.TempDir(), "s.json")
	p, pids := startRun(t, "run", "--masters", "3", "--workers", "4", "--warmup", "0s", "--duration", "60s", "--json", out)
	p.waitLine(t, "now:") // the first second measured
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := p.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exit.Interrupted {
		t.Fatalf("exit: %v, want status %d", err, exit.Interrupted)
	}
	waitGone(t, pids)
	s, err := schema.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Interrupted || len(s.Runs) != 1 || !s.Runs[0].Interrupted {
		t.Fatalf("summary not marked interrupted: %+v", s)
	}
	if s.Runs[0].Counts.Cycles == 0 {
		t.Fatalf("interrupted run wrote no measurements: %+v", s.Runs[0].Counts)
	}
}

// SIGTERM behaves like Ctrl-C; SIGKILL leaves no server behind either
// (parent-death signal).
func TestNoOrphansOnTermOrKill(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			p, pids := startRun(t, "run", "--masters", "3", "--workers", "2", "--warmup", "0s", "--duration", "60s")
			p.waitLine(t, "redlock/goredis/"+lab.DefaultMux+"/uncontended") // measuring
			_ = p.cmd.Process.Signal(sig)
			_ = p.cmd.Wait()
			waitGone(t, pids)
		})
	}
}

// A short real run writes every field of the summary schema.
func TestRunWritesSchema(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	out := filepath.Join(t.TempDir(), "s.json")
	stdout, stderr, code := cli(t, 60*time.Second, "run", "--masters", "3", "--workers", "2", "--warmup", "200ms", "--duration", "1s", "-q", "--json", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "redlock/goredis/"+lab.DefaultMux+"/uncontended") {
		t.Fatalf("table lacks the run:\n%s", stdout)
	}
	var doc map[string]any
	readJSON(t, out, &doc)
	for _, k := range []string{"schema", "started", "interrupted", "host", "versions", "config", "runs"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	run := doc["runs"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "backend", "client", "mux", "masters", "workload", "keys", "workers", "rate",
		"duration_s", "interrupted", "throughput", "latency_us", "counts", "split_brain_rate", "retries_per_acquire"} {
		if _, ok := run[k]; !ok {
			t.Errorf("run lacks %q", k)
		}
	}
	lat := run["latency_us"].(map[string]any)
	for _, op := range []string{"acquire", "acquire_total", "release", "cycle"} {
		p, ok := lat[op].(map[string]any)
		if !ok {
			t.Fatalf("latency_us lacks %q", op)
		}
		for _, k := range []string{"count", "mean", "p50", "p90", "p99", "p999", "max"} {
			if _, ok := p[k]; !ok {
				t.Errorf("latency_us.%s lacks %q", op, k)
			}
		}
	}
	counts := run["counts"].(map[string]any)
	var sum float64
	for _, k := range []string{"acquired", "busy", "split_brain", "timeouts", "errors"} {
		sum += counts[k].(float64)
	}
	if counts["attempts"].(float64) != sum || sum == 0 {
		t.Fatalf("counts do not close: %v", counts)
	}
	if _, ok := counts["violations"]; !ok {
		t.Fatal("counts lacks violations")
	}
}

// A SIGKILLed lockbench cannot remove its masters' temp directory; the next
// start does, once the owner is gone.
func TestKilledRunsTempDirRemovedAtNextStart(t *testing.T) {
	testenv.Servers(t)
	p, pids := startRun(t, "run", "--masters", "3", "--workers", "2", "--duration", "60s", "-q")
	root := filepath.Dir(redisDir(t, pids[0]))
	if !strings.HasPrefix(filepath.Base(root), "lockbench-redis-") {
		t.Fatalf("master dir %s is not in a lockbench-redis-* temp dir", root)
	}
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
	waitGone(t, pids)
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("a SIGKILL left no temp dir to clean (%v): the test proves nothing", err)
	}
	r, err := compose.StartRedis(t.Context(), compose.RedisOptions{Masters: 1})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("%s left behind by the killed run is still there (%v)", root, err)
	}
}

// redisDir is the --dir of the redis-server with pid: redis chdirs there
// (its command line is rewritten as a process title).
func redisDir(t *testing.T, pid int) string {
	t.Helper()
	dir, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
