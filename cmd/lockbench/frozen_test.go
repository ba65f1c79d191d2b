package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// TestFrozenServerStoppedAnswering: a ZooKeeper, PostgreSQL or etcd server
// frozen (SIGSTOP) for the rest of the window is named under the table and
// in the summary as having stopped answering, at a time after the freeze,
// whether its client waits without a bound (ZooKeeper), bounds each call
// by seconds (PostgreSQL) or fails fast (etcd); and the run still ends
// (its workers within the shutdown budget, the servers stopped).
func TestFrozenServerStoppedAnswering(t *testing.T) {
	testenv.Servers(t)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"zookeeper", []string{"--backend", "zookeeper"}},
		{"postgres", []string{"--backend", "postgres"}},
		{"etcd", []string{"--backend", "etcd", "--etcd-members", "1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "zookeeper" {
				cpuBound(t)
			}
			out := filepath.Join(t.TempDir(), "s.json")
			// 3 s after the freeze on an idle machine, longer on a busy one:
			// a reply already sent before the freeze may be read late there,
			// and the stall it ends must still be followed by one to the end.
			window := 2*time.Second + slow.D(3*time.Second).Round(time.Second)
			args := append([]string{"run", "--workers", "4", "--warmup", "0s", "--duration", window.String(), "--json", out,
				"--fault", "stop:masters=1:at=2s:for=1m"}, c.args...)
			stdout, stderr, code := cli(t, 2*time.Minute, args...)
			if code != 0 { // a --fault run accepts its failures
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "STOPPED ANSWERING") { // in the errors under the table
				t.Errorf("the errors under the table name no server as stopped:\n%s\n%s", stdout, stderr)
			}
			var doc struct {
				Runs []struct {
					Errors []struct {
						Master   string   `json:"master"`
						StoppedS *float64 `json:"stopped_s"`
					} `json:"errors_by_master"`
				} `json:"runs"`
			}
			readJSON(t, out, &doc)
			if len(doc.Runs) != 1 || len(doc.Runs[0].Errors) == 0 || doc.Runs[0].Errors[0].StoppedS == nil {
				t.Fatalf("the summary names no server as stopped: %+v\n%s", doc, stderr)
			}
			// The freeze is at 2 s of the run (warmup 0); the stop is
			// dated by the last grant or answer before it.
			if at := *doc.Runs[0].Errors[0].StoppedS; at < 1 || at > window.Seconds() {
				t.Errorf("stopped at %+.2fs, want between the freeze (2 s, give or take its last grant) and the end (%v)", at, window)
			}
		})
	}
}
