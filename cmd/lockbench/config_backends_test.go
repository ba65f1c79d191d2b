package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/results/schema"
)

// Bad input for the zookeeper, postgres and single backends is a usage
// error naming the flag, before any server starts.
func TestNewBackendsBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"pg mode", []string{"run", "--backend", "postgres", "--pg-mode", "table"}, "--pg-mode"},
		{"pg wait timeout", []string{"run", "--backend", "postgres", "--pg-wait-timeout", "0s"}, "--pg-wait-timeout"},
		{"zk wait timeout", []string{"run", "--backend", "zookeeper", "--zk-wait-timeout", "0s"}, "--zk-wait-timeout"},
		{"zk addr", []string{"run", "--backend", "zookeeper", "--zookeeper", "localhost"}, "--zookeeper"},
		{"wait replicas", []string{"run", "--backend", "single", "--wait-replicas", "-1"}, "--wait-replicas"},
		{"wait timeout", []string{"run", "--backend", "single", "--wait-replicas", "1", "--wait-timeout", "0s"}, "--wait-timeout"},
		{"clock jump on zookeeper", []string{"run", "--backend", "zookeeper", "--fault", "clock-jump:masters=1:+5s:at=1s"}, "--fault"},
		{"partition single", []string{"run", "--backend", "single", "--fault", "partition:masters=1:at=1s:for=1s"}, "--fault"},
		{"kill single's third", []string{"run", "--backend", "single", "--fault", "kill:masters=3:at=1s"}, "3"},
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

// TestCompareNewBaselines: the zookeeper, postgres, single (with and
// without WAIT) and redislock rows sit in one compare run on servers it
// starts, each granting, none violating, each on one server.
func TestCompareNewBaselines(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ZooKeeper, PostgreSQL and a Sentinel topology (~20 s)")
	}
	t.Parallel() // waits on servers and fixed scenario lengths, little CPU: overlaps the other long ones
	out := filepath.Join(t.TempDir(), "c.json")
	// A 1 s warmup: on a loaded machine ZooKeeper's first requests (a cold
	// JVM) took longer than a 200 ms warmup and the 1 s window together,
	// and its row had no attempt at all. Load-tolerant node timeouts: a first attempt that times out under
	// load leaves its key held for the whole 10 s TTL, and a contended cell
	// of 2 keys then grants nothing (seen: redislock, 514 refused).
	_, stderr, code := cli(t, 3*time.Minute, append([]string{"compare", "--masters", "1", "--clients", "goredis", "--muxes", "fanout", "--workloads", "contended",
		"--keys", "2", "--workers", "8", "--baselines", "zookeeper,postgres,postgres-xact,single,single-wait,redislock",
		"--warmup", "1s", "--duration", "1s", "--rate", "200", "-q", "--json", out}, loadTolerant(10*time.Second)...)...)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	s, err := schema.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"zookeeper/try/contended": true, "postgres/session/contended": true, "postgres/xact/contended": true,
		"single/wait0/contended": true, "single/wait1/contended": true, "redislock/contended": true}
	for _, r := range s.Runs {
		if !want[r.Name] {
			continue
		}
		delete(want, r.Name)
		if r.Masters != 1 || r.Counts.Acquired == 0 || r.Counts.Violations != 0 {
			t.Errorf("%s: masters %d, counts %+v: want 1 server, grants, no violations", r.Name, r.Masters, r.Counts)
		}
	}
	for name := range want {
		t.Errorf("row %q missing", name)
	}
}
