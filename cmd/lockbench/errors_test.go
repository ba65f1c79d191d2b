package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results"
)

// startReplica starts a real master and a read-only replica of it and
// returns the replica's address.
func startReplica(t *testing.T) string {
	t.Helper()
	master := startMasters(t, 1)
	host, port, _ := strings.Cut(master, ":")
	r, err := compose.StartRedis(context.Background(), compose.RedisOptions{Masters: 1, Persistence: "none",
		ExtraArgs: []string{"--replicaof", host, port}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r.Addrs()[0]
}

// Against a read-only replica every attempt fails: the server's READONLY
// reply is named in the summary (for the master that sent it, accounting
// for every error) and under the table, the run says so loudly and exits 1;
// --allow-failures accepts it.
func TestReadOnlyReplicaExplained(t *testing.T) {
	replica := startReplica(t)
	for _, allow := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "s.json")
		args := []string{"run", "-q", "--redis", replica, "--workers", "2", "--duration", "300ms", "--warmup", "0s", "--json", out}
		if allow {
			args = append(args, "--allow-failures")
		}
		_, stderr, code := runIn(context.Background(), args...)
		want := exitFailure
		if allow {
			want = exitOK
		}
		if code != want {
			t.Fatalf("allow=%v: exit %d, want %d: %s", allow, code, want, stderr)
		}
		if !strings.Contains(stderr, "READONLY") || !strings.Contains(stderr, "WARNING") {
			t.Errorf("allow=%v: stderr does not warn and name READONLY: %s", allow, stderr)
		}
		var sum results.Summary
		readJSON(t, out, &sum)
		r := sum.Runs[0]
		// Every attempt fails; on a loaded machine some as timeouts.
		if r.Counts.Errors == 0 || r.Counts.Errors+r.Counts.Timeouts != r.Counts.Attempts {
			t.Fatalf("counts %+v: want every attempt failed", r.Counts)
		}
		if len(r.ErrorsByMaster) != 1 || r.ErrorsByMaster[0].Master != replica {
			t.Fatalf("errors_by_master %+v: want the replica alone", r.ErrorsByMaster)
		}
		m := r.ErrorsByMaster[0]
		if len(m.Messages) == 0 || !strings.HasPrefix(m.Messages[0].Message, "READONLY") {
			t.Fatalf("messages %+v: want READONLY first", m.Messages)
		}
		if m.Messages[0].Count < r.Counts.Errors {
			t.Errorf("READONLY seen %d times, %d errors counted", m.Messages[0].Count, r.Counts.Errors)
		}
		var table bytes.Buffer
		if err := results.WriteTable(&table, sum.Runs, results.TableOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(table.String(), "READONLY You can't write against a read only replica") {
			t.Errorf("table does not show the error:\n%s", table.String())
		}
	}
}

// A master killed mid-run is named as having stopped answering, with when;
// the masters that kept answering are not. A --fault run accepts failures.
func TestKilledMasterNamed(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := runIn(context.Background(), "run", "-q", "--masters", "3", "--workers", "4", "--duration", "2s", "--warmup", "0s",
		"--fault", "kill:masters=2:at=500ms:restart=never", "--json", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum results.Summary
	readJSON(t, out, &sum)
	r := sum.Runs[0]
	var stopped []results.MasterErrors
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
	redis := startMasters(t, 1)
	_, stderr, code := runIn(context.Background(), "run", "-q", "--redis", redis, "--workers", "3", "--node-timeout", "1us",
		"--duration", "300ms", "--warmup", "0s")
	if code != exitFailure {
		t.Fatalf("exit %d, want %d: %s", code, exitFailure, stderr)
	}
	for _, want := range []string{"--workers 3 is more than 1 masters", "lower --workers", "timeouts", "--allow-failures"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, stderr)
		}
	}
}
