package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// TestFaultBackends plays kill, stop and partition against the etcd,
// ZooKeeper and PostgreSQL servers lockbench starts (partition through the
// proxy the driver dials): no lock is granted while the server is down,
// grants resume after the repair, and the referee counts no violation.
func TestFaultBackends(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // each case starts its own servers and writes its own files: they overlap each other and the other parallel tests
	for _, c := range []struct {
		name string
		args []string
		// the fault; down and up are the events that bracket the outage,
		// up also where grants resume (a restarted server may take
		// seconds on a loaded machine: kills run longer)
		fault, down, up string
	}{
		{"zookeeper/stop", []string{"--backend", "zookeeper"}, "stop:masters=1:at=2s:for=800ms", "stop", "resume"},
		{"zookeeper/kill", []string{"--backend", "zookeeper", "--duration", "9s"}, "kill:masters=1:at=2s:restart=delayed:delay=800ms", "kill", "restart"},
		{"zookeeper/partition", []string{"--backend", "zookeeper"}, "partition:masters=1:at=2s:for=800ms", "inject", "heal"},
		{"postgres/stop", []string{"--backend", "postgres"}, "stop:masters=1:at=2s:for=800ms", "stop", "resume"},
		{"postgres/kill", []string{"--backend", "postgres", "--duration", "9s"}, "kill:masters=1:at=2s:restart=delayed:delay=800ms", "kill", "restart"},
		{"postgres/partition", []string{"--backend", "postgres"}, "partition:masters=1:at=2s:for=800ms", "inject", "heal"},
		{"etcd/stop", []string{"--backend", "etcd", "--etcd-members", "1"}, "stop:masters=1:at=2s:for=800ms", "stop", "resume"},
		// After a majority restart grants usually resume within a second,
		// but once stayed away for seconds (every attempt busy; a waiter
		// key left by a cut-off attempt, holding until its lease lapses,
		// is the likely cause, not verified): a short TTL, a longer run.
		{"etcd/majority-kill", []string{"--backend", "etcd", "--etcd-members", "3", "--ttl", "2s", "--duration", "9s"},
			"kill:masters=1,2:at=2s:restart=delayed:delay=800ms", "kill", "restart"},
		{"etcd/partition", []string{"--backend", "etcd", "--etcd-members", "1"}, "partition:masters=1:at=2s:for=800ms", "inject", "heal"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The fault strikes 2 s into the load (warmup 0): on a loaded
			// machine the first grants of a cold server (a JVM, a
			// PostgreSQL backend) came later than 1 s. 6 s leave time after
			// the repair: once, under load, an 800 ms stop was recorded
			// from 4.2 s to 5.1 s.
			if strings.HasPrefix(c.name, "zookeeper/") {
				// A JVM starting and warming up: with more of them at once
				// on a loaded machine, nothing was granted before the
				// fault at 1 s.
				cpuBound(t)
			}
			out := filepath.Join(t.TempDir(), "s.json")
			args := append([]string{"run", "-q", "--workload", "contended", "--keys", "2", "--workers", "8",
				"--warmup", "0s", "--duration", "6s", "--json", out, "--fault", c.fault}, c.args...)
			cpu := slow.WatchCPU()
			_, stderr, code := cli(t, 2*time.Minute, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var doc struct {
				Runs []struct {
					Counts map[string]int64 `json:"counts"`
					Extra  struct {
						Faults struct {
							Events []struct {
								AtMS   float64 `json:"at_ms"`
								Action string  `json:"action"`
								Err    string  `json:"error"`
							} `json:"events"`
							Grants []int64 `json:"grants_10ms"`
						} `json:"faults"`
					} `json:"extra"`
				} `json:"runs"`
			}
			readJSON(t, out, &doc)
			run := doc.Runs[0]
			down, up := -1.0, -1.0
			var lateReady []string // restarts not ready within the schedule's bound
			for _, e := range run.Extra.Faults.Events {
				switch {
				case e.Err != "" && e.Action == "ready" && strings.Contains(e.Err, "deadline exceeded"):
					lateReady = append(lateReady, e.Err)
				case e.Err != "":
					t.Errorf("fault event %+v failed", e)
				}
				if e.Action == c.down && down < 0 {
					down = e.AtMS
				}
				if e.Action == c.up {
					up = max(up, e.AtMS)
				}
			}
			if down < 0 || up < down {
				t.Fatalf("events %+v: want %s then %s", run.Extra.Faults.Events, c.down, c.up)
			}
			g := run.Extra.Faults.Grants
			sum := func(fromMS, toMS float64) (n int64) {
				for i := max(0, int(fromMS/10)); i < min(len(g), int(toMS/10)); i++ {
					n += g[i]
				}
				return n
			}
			// A request already at the server when the fault struck may be
			// answered well after it on a loaded machine (a partition
			// holds requests, not replies; an fsync may be slow), and an
			// event is recorded just after its signals: nothing may be
			// granted in the fault's last 60 %, up to 100 ms before up.
			quiet := down + 0.4*(up-down)
			before, during, after := sum(0, down), sum(quiet, up-100), sum(up, 1e9)
			t.Logf("grants before %d, during [%.0f ms, %.0f ms] %d (fault at %.0f ms), after %d; counts %v", before, quiet, up-100, during, down, after, run.Counts)
			if during != 0 {
				t.Errorf("%d grants while the server was down (%s..%s)", during, c.down, c.up)
			}
			if v := run.Counts["violations"]; v != 0 {
				t.Errorf("%d violations", v)
			}
			if before == 0 && after > 0 && len(lateReady) == 0 {
				// Nothing granted before the fault, yet grants after the
				// repair: the server was not serving yet when the fault
				// struck (a first fsync or leader lease held up by a disk
				// other tests share), so "none during" says nothing.
				t.Skipf("inconclusive: the server granted nothing in the %.0f ms before the fault (after the repair %d)", down, after)
			}
			if before == 0 || after == 0 || len(lateReady) > 0 {
				// Liveness within the run's seconds: on a machine too busy
				// to run the servers (a restarted cluster electing a
				// leader, a JVM warming up) the run's length says nothing.
				if share := cpu.Share(); share.Slowdown() >= slow.Starved {
					t.Skipf("inconclusive: grants before the fault %d, after the repair %d, restarts not ready in time %q, and %v", before, after, lateReady, share)
				}
				if len(lateReady) > 0 {
					t.Errorf("restarts not ready in time: %q", lateReady)
				}
				if before == 0 || after == 0 {
					t.Errorf("grants before the fault %d, after the repair %d: want both > 0", before, after)
				}
			}
		})
	}
}

// TestFaultBackendsBadInput: faults that cannot apply to a backend are
// refused with exit 2 and a line naming the fault.
func TestFaultBackendsBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "zookeeper", "--fault", "kill:masters=2"}, "master 2: the run has 1"},
		{[]string{"--backend", "postgres", "--fault", "clock-jump:masters=1:+5s"}, "clock-jump applies to Redis masters only"},
		{[]string{"--backend", "etcd", "--etcd-members", "3", "--fault", "stop:masters=4:for=1s"}, "master 4: the run has 3"},
		{[]string{"--backend", "single", "--fault", "partition:masters=1:for=1s"}, "only kill and stop apply"},
		{[]string{"--backend", "zookeeper", "--zookeeper", "127.0.0.1:1", "--fault", "kill:masters=1"}, "local masters"},
		{[]string{"--backend", "postgres", "--postgres", "postgres://u@127.0.0.1:1/db", "--fault", "stop:masters=1:for=1s"}, "local masters"},
	} {
		_, stderr, code := cli(t, 30*time.Second, append([]string{"run", "-q"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q: want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
