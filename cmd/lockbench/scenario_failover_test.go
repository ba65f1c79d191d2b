package main

import (
	"path/filepath"
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
	t.Parallel() // waits on servers and fixed scenario lengths, little CPU: overlaps the other long ones
	dir := t.TempDir()
	stdout, stderr, code := cli(t, 120*time.Second, "scenario", "failover", "--json", filepath.Join(dir, "f.json"))
	if code != 0 {
		t.Fatalf("failover: exit %d: %s\n%s", code, stderr, stdout)
	}
	stdout2, stderr, code := cli(t, 120*time.Second, "scenario", "failover-wait", "--json", filepath.Join(dir, "w.json"))
	if code != 0 {
		t.Fatalf("failover-wait: exit %d: %s\n%s", code, stderr, stdout2)
	}
	for file, name := range map[string]string{"f.json": "failover", "w.json": "failover-wait"} {
		var doc struct {
			Config struct {
				Scenarios []string `json:"scenarios"`
			} `json:"config"`
			Runs []struct {
				Name   string           `json:"name"`
				Counts map[string]int64 `json:"counts"`
				Extra  struct {
					Scenario struct {
						Scenario   string `json:"scenario"`
						Violations int64  `json:"violations"`
						AsExpected bool   `json:"as_expected"`
					} `json:"scenario"`
				} `json:"extra"`
			} `json:"runs"`
		}
		readJSON(t, filepath.Join(dir, file), &doc)
		if len(doc.Runs) != 1 || len(doc.Config.Scenarios) != 1 || doc.Config.Scenarios[0] != name {
			t.Fatalf("%s: config %v, %d runs: want %s's one row", file, doc.Config.Scenarios, len(doc.Runs), name)
		}
		r := doc.Runs[0]
		o := r.Extra.Scenario
		if r.Name != "scenario/"+name || o.Scenario != name || !o.AsExpected || r.Counts["violations"] != o.Violations ||
			(o.Violations > 0) != (name == "failover") {
			t.Errorf("%s: row %+v", file, r)
		}
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
