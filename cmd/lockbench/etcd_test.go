package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// etcdMarker is in every local member's command line (its data dir).
const etcdMarker = "lockbench-etcd-"

// startEtcdRun starts `lockbench run` on the etcd backend and waits until
// its members are up.
func startEtcdRun(t *testing.T, members int, args ...string) (*proc, []int) {
	t.Helper()
	p := startProc(t, args...)
	return p, p.waitChildren(t, etcdMarker, members)
}

// `lockbench run --backend etcd` with no other etcd flag starts a 3-member
// cluster, measures, and stops every member.
func TestEtcdRunStartsAndStopsCluster(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent processes and files: overlaps the other parallel tests
	for _, mode := range []string{"client", "rpc"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "s.json")
			p, pids := startEtcdRun(t, 3, "run", "--backend", "etcd", "--etcd-mode", mode, "--workload", "contended", "--keys", "2",
				"--workers", "4", "--warmup", "0s", "--duration", "1s", "-q", "--json", out)
			if err := p.cmd.Wait(); err != nil {
				t.Fatalf("run: %v", err)
			}
			waitGone(t, pids)
			s, err := schema.ReadSummary(out)
			if err != nil {
				t.Fatal(err)
			}
			r := s.Runs[0]
			if r.Backend != "etcd" || !strings.Contains(r.Name, "etcd/"+mode) || r.Masters != 3 {
				t.Fatalf("run %q backend %q masters %d: want etcd/%s over 3 members", r.Name, r.Backend, r.Masters, mode)
			}
			if r.Counts.Acquired == 0 || r.Counts.Violations != 0 {
				t.Fatalf("counts %+v: want grants and no violations", r.Counts)
			}
		})
	}
}

// Ctrl-C, SIGTERM and SIGKILL of lockbench leave no etcd member behind.
func TestEtcdNoOrphans(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent processes: overlaps the other parallel tests
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			p, pids := startEtcdRun(t, 3, "run", "--backend", "etcd", "--workers", "2", "--warmup", "0s", "--duration", "60s")
			p.waitLine(t, "etcd/") // measuring: the run's name line
			_ = p.cmd.Process.Signal(sig)
			err := p.cmd.Wait()
			if sig == syscall.SIGINT {
				if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exit.Interrupted {
					t.Fatalf("exit after SIGINT: %v, want status %d", err, exit.Interrupted)
				}
			}
			waitGone(t, pids)
		})
	}
}

// Bad etcd input is a usage error before anything starts.
func TestEtcdBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"members 4", []string{"run", "--backend", "etcd", "--etcd-members", "4"}, "--etcd-members 4"},
		{"members 0", []string{"run", "--backend", "etcd", "--etcd-members", "0"}, "--etcd-members 0"},
		{"unknown mode", []string{"run", "--backend", "etcd", "--etcd-mode", "raft"}, "raft"},
		{"wait with rpc", []string{"run", "--backend", "etcd", "--etcd-mode", "rpc", "--etcd-wait"}, "--etcd-wait"},
		{"zero wait timeout", []string{"run", "--backend", "etcd", "--etcd-wait-timeout", "0s"}, "--etcd-wait-timeout"},
		{"bad etcd addr", []string{"run", "--backend", "etcd", "--etcd", "localhost"}, "localhost"},
		{"duplicate etcd addr", []string{"run", "--backend", "etcd", "--etcd", "127.0.0.1:2379,127.0.0.1:2379"}, "127.0.0.1:2379"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cli(t, 30*time.Second, tc.args...)
			if code != exit.Usage {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exit.Usage, stdout, stderr)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr %q: want one line naming %q", stderr, tc.want)
			}
		})
	}
}
