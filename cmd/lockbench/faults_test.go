package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKillRestartMidRun: masters crash and come back (a majority at once,
// then one after a delay), another is SIGSTOPped, one is partitioned behind
// its proxy; lockbench neither crashes nor hangs, exits 0 and writes a
// summary that records the faults.
func TestKillRestartMidRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := cli(t, 90*time.Second, "run", "-q", "--masters", "5", "--workload", "contended", "--keys", "2",
		"--workers", "4", "--hold", "20ms", "--ttl", "500ms", "--warmup", "0s", "--duration", "2500ms", "--json", out,
		"--fault", "kill:masters=1,2,3:at=300ms:restart=immediate",
		"--fault", "kill:masters=4:at=800ms:restart=delayed:delay=300ms",
		"--fault", "stop:masters=5:at=1300ms:for=300ms",
		"--fault", "partition:masters=1:at=1700ms:for=300ms",
		"--fault", "kill:masters=2:at=2s:restart=never")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
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
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
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
		{[]string{"--fault", "clock-jump:masters=2:+5s"}, "not implemented"},
	} {
		_, stderr, code := cli(t, 30*time.Second, append([]string{"run", "-q"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q: want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
