package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

func TestWorkloadsCommandLists(t *testing.T) {
	stdout, stderr, code := cli(t, 30*time.Second, "workloads")
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"uncontended", "contended", "zipf", "fixed", "uniform", "exp", "--rate"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("`lockbench workloads` does not list %q:\n%s", want, stdout)
		}
	}
}

func TestPacingBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--rate", "-5"}, "--rate"},
		{[]string{"--rate", "fast"}, "--rate"},
		{[]string{"--ramp", "-1s"}, "--ramp"},
		{[]string{"--hold-dist", "pareto"}, "pareto"},
		{[]string{"--workload", "zipf", "--zipf-s", "0"}, "--zipf-s"},
		{[]string{"--workload", "zipf", "--keys", "0"}, "--keys"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, stderr, code := cli(t, 30*time.Second, append([]string{"run"}, tc.args...)...)
			if code != exit.Usage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q: want exit 2 and one line naming %q", code, stderr, tc.want)
			}
		})
	}
}

// TestOpenLoopZipfRun: an open-loop zipf run with a ramp and uniform holds,
// end to end: the JSON config carries the new parameters, and the run row
// the referee's and the pacer's measures, with the accounting closing.
func TestOpenLoopZipfRun(t *testing.T) {
	testenv.Servers(t)
	out := filepath.Join(t.TempDir(), "s.json")
	_, stderr, code := cli(t, 60*time.Second, append([]string{"run", "-q", "--masters", "3", "--workload", "zipf", "--keys", "20",
		"--zipf-s", "0.9", "--hold", "1ms", "--hold-dist", "uniform", "--rate", "200", "--ramp", "500ms",
		"--warmup", "0s", "--workers", "8", "--duration", "1s", "--json", out}, loadTolerant(10*time.Second)...)...)
	if code != exit.OK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		Config struct {
			Workload map[string]any `json:"workload"`
		} `json:"config"`
		Runs []schema.Run `json:"runs"`
	}
	readJSON(t, out, &sum)
	w := sum.Config.Workload
	if w["rate"] != 200.0 || w["ramp"] != float64(500*time.Millisecond) || w["zipf_s"] != 0.9 || w["hold_dist"] != "uniform" {
		t.Errorf("config workload %v: missing rate/ramp/zipf_s/hold_dist", w)
	}
	r := sum.Runs[0]
	c := r.Counts
	if c.Acquired == 0 || c.Acquired+c.Busy+c.SplitBrain+c.Timeouts+c.Errors != c.Attempts {
		t.Errorf("counts do not close: %+v", c)
	}
	if r.Rate != 200 || r.ServiceUS["acquire_total"].Count == 0 || r.Pacing == nil {
		t.Errorf("open loop row: rate %v, service %v, pacing %v", r.Rate, r.ServiceUS, r.Pacing)
	}
	if r.Fairness <= 0 || r.Fairness > 1 || r.ValidityMarginUS == nil || r.ValidityMarginUS.Count == 0 || r.Referee == nil {
		t.Errorf("referee measures missing: fairness %v margin %+v extra %v", r.Fairness, r.ValidityMarginUS, r.Referee)
	}
}
