package main

import (
	"strings"
	"testing"
	"time"
)

// TestFailoverScenarios: a grant that never reached the replica survives
// the failover as a second holder (violations > 0); with WAIT 1 it is no
// grant, and nothing overlaps.
func TestFailoverScenarios(t *testing.T) {
	if testing.Short() {
		t.Skip("two Sentinel failovers (~15 s)")
	}
	stdout, stderr, code := cli(t, 120*time.Second, "scenario", "failover")
	if code != 0 {
		t.Fatalf("failover: exit %d: %s\n%s", code, stderr, stdout)
	}
	stdout2, stderr, code := cli(t, 120*time.Second, "scenario", "failover-wait")
	if code != 0 {
		t.Fatalf("failover-wait: exit %d: %s\n%s", code, stderr, stdout2)
	}
	want := map[string]bool{"failover": true, "failover-wait": false} // violations > 0
	for _, line := range strings.Split(stdout+stdout2, "\n") {
		f := strings.Fields(line)
		v, ok := want[firstField(f)]
		if !ok || len(f) < 9 {
			continue
		}
		// scenario, wait, A, B, promoted, failover ms ("N ms"), violations, …
		if got := f[7] != "0"; got != v || f[len(f)-1] != "yes" {
			t.Errorf("%s: violations %s, verdict %s; want violations > 0: %v", f[0], f[7], f[len(f)-1], v)
		}
		delete(want, f[0])
	}
	if len(want) > 0 {
		t.Fatalf("rows missing for %v:\n%s%s", want, stdout, stdout2)
	}
}

func firstField(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

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
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := cli(t, 30*time.Second, tc.args...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitUsage, stdout, stderr)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr %q: want one line naming %q", stderr, tc.want)
			}
		})
	}
}
