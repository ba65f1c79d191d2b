package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// startReplica starts a real master and a read-only replica of it and
// returns the replica's address (the password is the environment's).
func startReplica(t *testing.T) (addr, password string) {
	t.Helper()
	ctx := context.Background()
	m, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1, NoAuth: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 1, Persistence: "none",
		ExtraArgs: []string{"--replicaof", "127.0.0.1", m.Servers[0].Endpoint().Port()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r.Addrs()[0], r.Password
}

// A read-only replica given as a master is refused before anything is
// measured (Redlock needs independent masters): exit 2, one line
// naming it and its ROLE, nothing written. (Runtime READONLY replies are
// still explained per master: drivers/errlog_test.go.)
func TestReadOnlyReplicaRefused(t *testing.T) {
	testenv.Servers(t)
	replica, pw := startReplica(t)
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := runIn(context.Background(), "run", "-q", "--redis", "redis://:"+pw+"@"+replica,
		"--workers", "2", "--duration", "300ms", "--warmup", "0s", "--json", out)
	if code != exit.Usage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, replica) || !strings.Contains(stderr, "not master") {
		t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming the replica and its role", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s written for a refused run", out)
	}
}

// A master killed mid-run is named as having stopped answering, with when;
// the masters that kept answering are not. A --fault run accepts failures.
func TestKilledMasterNamed(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := runIn(context.Background(), "run", "-q", "--masters", "3", "--workers", "4", "--duration", "2s", "--warmup", "0s",
		"--fault", "kill:masters=2:at=500ms:restart=never", "--json", out)
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum schema.Summary
	readJSON(t, out, &sum)
	r := sum.Runs[0]
	var stopped []schema.MasterErrors
	for _, m := range r.ErrorsByMaster {
		if m.StoppedS != nil {
			stopped = append(stopped, m)
		}
	}
	if len(stopped) != 1 || stopped[0].Index != 2 {
		t.Fatalf("stopped masters %+v (all %+v): want master 2 alone", stopped, r.ErrorsByMaster)
	}
	m := stopped[0]
	if *m.StoppedS < m.FirstS || *m.StoppedS > r.DurationS || m.StoppedFailures == 0 || m.StoppedFailures > m.Errors {
		t.Fatalf("master 2 %+v: stop time or failures out of the run (duration %.2fs)", m, r.DurationS)
	}
	if len(m.Messages) == 0 {
		t.Fatalf("master 2: no error message kept: %+v", m)
	}
}

// A run whose attempts mostly time out is told its --workers exceed what
// the masters and the machine serve, and exits 1. A node timeout of 1 µs
// makes every command time out on a real master, whatever the load.
func TestMostlyTimeoutsWarnsAboutWorkers(t *testing.T) {
	testenv.Servers(t)
	redis := startMasters(t, 1)
	_, stderr, code := runIn(context.Background(), "run", "-q", "--redis", redis, "--workers", "3", "--node-timeout", "1us",
		"--duration", "300ms", "--warmup", "0s")
	if code != exit.Failure {
		t.Fatalf("exit %d, want %d: %s", code, exit.Failure, stderr)
	}
	for _, want := range []string{"--workers 3 is more than 1 masters", "lower --workers", "timeouts", "--allow-failures"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
}
