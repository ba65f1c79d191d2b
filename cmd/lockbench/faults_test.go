package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
)

// TestKillRestartMidRun: masters crash and come back (a majority at once,
// then one after a delay), another is SIGSTOPped, one is partitioned behind
// its proxy; lockbench neither crashes nor hangs, exits 0 and writes a
// summary that records the faults.
func TestKillRestartMidRun(t *testing.T) {
	testenv.Servers(t)
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := cli(t, 90*time.Second, append([]string{"run", "-q", "--masters", "5", "--workload", "contended", "--keys", "2",
		"--workers", "4", "--hold", "20ms", "--ttl", "500ms", "--warmup", "0s", "--duration", "2500ms", "--json", out,
		"--fault", "kill:masters=1,2,3:at=300ms:restart=immediate",
		"--fault", "kill:masters=4:at=800ms:restart=delayed:delay=300ms",
		"--fault", "stop:masters=5:at=1300ms:for=300ms",
		"--fault", "partition:masters=1:at=1700ms:for=300ms",
		"--fault", "kill:masters=2:at=2s:restart=never"}, loadTolerant(500*time.Millisecond)...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Config struct {
			Faults []string `json:"faults"`
		} `json:"config"`
		Runs []struct {
			Counts map[string]float64 `json:"counts"`
			Extra  struct {
				Faults struct {
					Events []struct {
						Action string `json:"action"`
						Master int    `json:"master"`
						Err    string `json:"error"`
					} `json:"events"`
					Timeline []map[string]float64 `json:"timeline"`
				} `json:"faults"`
			} `json:"extra"`
		} `json:"runs"`
	}
	readJSON(t, out, &doc)
	if len(doc.Config.Faults) != 5 {
		t.Errorf("config.faults %v: want the 5 specs", doc.Config.Faults)
	}
	run := doc.Runs[0]
	actions := map[string]int{}
	for _, e := range run.Extra.Faults.Events {
		if e.Err != "" {
			t.Errorf("fault event %+v failed", e)
		}
		actions[e.Action]++
	}
	want := map[string]int{"kill": 5, "restart": 4, "ready": 4, "stop": 1, "resume": 1, "inject": 1, "heal": 1}
	for a, n := range want {
		if actions[a] != n {
			t.Errorf("%d %s events, want %d (all: %v)", actions[a], a, n, actions)
		}
	}
	if run.Counts["acquired"] == 0 {
		t.Errorf("nothing acquired around the faults: %v", run.Counts)
	}
	if len(run.Extra.Faults.Timeline) == 0 {
		t.Error("no availability timeline")
	}
}

func TestFaultBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fault", "explode:masters=1"}, "unknown kind"},
		{[]string{"--fault", "kill:masters=6"}, "the run has 5"},
		{[]string{"--fault", "kill:masters=1", "--redis", "127.0.0.1:1"}, "local masters"},
		{[]string{"--fault", "clock-jump:masters=2"}, "needs a step"},
		{[]string{"--fault", "clock-jump:masters=1:+5s", "--redis", "127.0.0.1:1"}, "local masters"},
		{[]string{"--fault", "pause-client:workers=65:for=1s"}, "worker 65: the run has 64"},
		{[]string{"--fault", "clock-jump:masters=1:+5s", "--backend", "etcd"}, "Redis masters only"},
	} {
		_, stderr, code := cli(t, 30*time.Second, append([]string{"run", "-q"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q: want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestPauseClientStaleOverlap: worker 1 stalls inside its critical section
// for ttl+300ms, as a GC pause would. Its lease expires meanwhile and
// another worker is granted the key: the referee counts a stale overlap
// (two users of the resource, what fencing tokens are for), not a
// violation, since the lock service kept its promise; the stalled holder's
// unlock finds the lock gone.
func TestPauseClientStaleOverlap(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	out := filepath.Join(t.TempDir(), "s.json")
	stdout, stderr, code := cli(t, 60*time.Second, "run", "-q", "--workload", "contended", "--warmup", "0s",
		"--workers", "4", "--keys", "1", "--hold", "20ms", "--ttl", "300ms", "--duration", "3s",
		"--fault", "pause-client:workers=1:at=500ms:for=ttl+300ms", "--json", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Runs []struct {
			Counts map[string]int64 `json:"counts"`
			Extra  struct {
				Referee struct {
					Violations    int64 `json:"violations"`
					StaleOverlaps int64 `json:"stale_overlaps"`
				} `json:"referee"`
				Faults struct {
					Events []struct {
						Action string `json:"action"`
						Worker int    `json:"worker"`
						Err    string `json:"error"`
					} `json:"events"`
					Stalls int64 `json:"stalls_performed"`
				} `json:"faults"`
			} `json:"extra"`
		} `json:"runs"`
	}
	readJSON(t, out, &doc)
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	run := doc.Runs[0]
	t.Logf("counts %v, referee %+v, stalls %d", run.Counts, run.Extra.Referee, run.Extra.Faults.Stalls)
	if ev := run.Extra.Faults.Events; len(ev) != 1 || ev[0].Action != "stall" || ev[0].Worker != 1 || ev[0].Err != "" {
		t.Errorf("fault events %+v: want one stall of worker 1", ev)
	}
	if run.Extra.Faults.Stalls < 1 {
		t.Errorf("stalls_performed %d, want ≥ 1", run.Extra.Faults.Stalls)
	}
	if s := run.Extra.Referee.StaleOverlaps; s < 1 || run.Counts["stale_overlaps"] != s {
		t.Errorf("stale overlaps %d (counts %d), want ≥ 1 in both", s, run.Counts["stale_overlaps"])
	}
	if v := run.Extra.Referee.Violations; v != 0 || run.Counts["violations"] != 0 {
		t.Errorf("violations %d (counts %d): a stalled client is no fault of the lock service", v, run.Counts["violations"])
	}
	if run.Counts["release_errors"] < 1 {
		t.Errorf("release_errors %d: the stalled holder's unlock should find the lock gone", run.Counts["release_errors"])
	}
	if !strings.Contains(stdout, "stale") {
		t.Errorf("the table has no stale column:\n%s", stdout)
	}
}
