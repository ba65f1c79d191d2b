package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestSweepFindsKnee: a small sweep end to end, in-process: two steps by
// workers, the knee table on stdout, the steps on stderr, every step's
// summary row and interval log and sweep.json in --out.
func TestSweepFindsKnee(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	redis := startMasters(t, 1)
	out := filepath.Join(t.TempDir(), "sweep")
	args := []string{"sweep", "--redis", redis, "--by", "workers", "--start", "1", "--factor", "2", "--max-steps", "2",
		"--refine", "0", "--slo", "1s", "--max-error-rate", "0.05", "--duration", "500ms", "--warmup", "0s", "--out", out,
		// The knee under test is the 1 s SLO's, not the per-master timeout's:
		// on a loaded host a 50 ms timeout fails steps by errors instead.
		"--node-timeout", "1s"}
	var stdout, stderr bytes.Buffer
	if code := executeIO(context.Background(), args, &stdout, &stderr); code != exit.OK {
		t.Fatalf("sweep: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "knee: highest load with cycle p99 < 1s") || !strings.Contains(stdout.String(), "load in workers") {
		t.Errorf("knee table:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "step redlock/goredis/"+lab.DefaultMux+"/uncontended@workers=2:") {
		t.Errorf("step lines:\n%s", stderr.String())
	}
	var sw []schema.Sweep
	readJSON(t, filepath.Join(out, "sweep.json"), &sw)
	if len(sw) != 1 || len(sw[0].Steps) != 2 || sw[0].Knee != 1 || sw[0].Steps[1].Workers != 2 {
		t.Fatalf("sweep %+v", sw)
	}
	// Every measurement is in --out: each step's (none failed, so one
	// each) and each of the knee interval's rounds.
	want := len(sw[0].Steps)
	for _, p := range sw[0].Probes {
		want += len(p.OK)
	}
	if len(sw[0].Probes) == 0 || len(sw[0].KneeInterval) != 2 {
		t.Errorf("sweep.json: probes %+v, knee_interval %v: want the interval's rounds", sw[0].Probes, sw[0].KneeInterval)
	}
	d, err := rundir.ReadRunDir(out)
	if err != nil || len(d.Summary.Runs) != want || len(d.Logs) != want {
		t.Fatalf("out dir: %v, %d runs, %d logs; want %d (the steps' and the interval rounds' measurements)", err, len(d.Summary.Runs), len(d.Logs), want)
	}
	var cfg struct {
		Config map[string]any `json:"config"`
	}
	readJSON(t, filepath.Join(out, "summary.json"), &cfg)
	base, _ := cfg.Config["base"].(map[string]any)
	if cfg.Config["by"] != "workers" || cfg.Config["max_steps"] != 2.0 || cfg.Config["refine"] != 0.0 || base["workload"] == nil {
		t.Errorf("summary config %v: want the sweep's keys beside base, --refine 0 as 0", cfg.Config)
	}
}

// TestSweepUsage: bad sweep flags are exit 2 with one line naming the
// flag, before any server starts.
func TestSweepUsage(t *testing.T) {
	for _, tt := range []struct{ args, want string }{
		{"--by qps", `--by "qps": want rate or workers`},
		{"--slo 0s", "--slo 0s: must be positive"},
		{"--slo -1ms", "--slo -1ms: must be positive"},
		{"--factor 1", "--factor 1: must be more than 1"},
		{"--factor 0", "--factor 0: must be more than 1"},
		{"--start 0", "--start 0: must be positive"},
		{"--by workers --start 0.5", "--start 0.5:"},
		{"--max-steps 0", "--max-steps 0: must be at least 1"},
		{"--refine -1", "--refine -1: must not be negative"},
		{"--repeat 0", "--repeat 0: must be at least 1"},
		{"--repeat -2", "--repeat -2: must be 1 to 100"},
		{"--max-steps 1000000", "--max-steps 1000000: must be 1 to 100"},
		{"--repeat 4611686018427387904", "--repeat 4611686018427387904: must be 1 to 100"},
		{"--refine 101", "--refine 101: must be at most 100"},
		{"--interval-rounds 101", "--interval-rounds 101: must be at most 100"},
		{"--op lunch", `--op "lunch": want one of`},
		{"--muxes fanout,telepathy", "telepathy"},
		{"--rate 100", "--rate 100:"},
		{"--max-error-rate 2", "--max-error-rate 2: want a share in [0, 1)"},
		{"--max-error-rate -0.1", "--max-error-rate -0.1: want a share in [0, 1)"},
	} {
		t.Run(tt.args, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := executeIO(context.Background(), append([]string{"sweep"}, strings.Fields(tt.args)...), &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if code != exit.Usage || len(lines) != 1 || !strings.Contains(lines[0], tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d, one line containing %q", code, stderr.String(), exit.Usage, tt.want)
			}
		})
	}
}
