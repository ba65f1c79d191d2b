package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// TestCompareBadInput: bad input is one line naming the flag, exit 2,
// before anything starts (the library's field errors mapped to flags).
func TestCompareBadInput(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown client", []string{"--clients", "goredis,jedis"}, `--clients "jedis": unknown`},
		{"unknown mux", []string{"--muxes", "fanout,carrier-pigeon"}, `--muxes "carrier-pigeon"`},
		{"unknown workload", []string{"--workloads", "bursty"}, `--workloads "bursty"`},
		{"empty clients", []string{"--clients", ""}, "--clients is empty"},
		{"duplicate mux", []string{"--muxes", "fanout,fanout"}, `--muxes "fanout": listed twice`},
		{"masters 0", []string{"--masters", "3,0"}, "--masters 0"},
		{"masters twice", []string{"--masters", "3,3"}, "--masters 3: listed twice"},
		{"single client flag", []string{"--client", "goredis"}, "--clients"},
		{"masters with redis", []string{"--redis", "127.0.0.1:1", "--masters", "3"}, "--masters"},
		{"negative batch", []string{"--batch", "-1"}, "--batch"},
		{"negative rtt", []string{"--rtt", "0,-1ms"}, "--rtt -1ms"},
		{"rtt twice", []string{"--rtt", "1ms,1ms"}, "--rtt 1ms: listed twice"},
		{"unknown baseline", []string{"--baselines", "chubby"}, `--baselines "chubby"`},
		{"baseline twice", []string{"--baselines", "etcd,etcd"}, "listed twice"},
		{"baseline etcd members", []string{"--baselines", "etcd", "--etcd-members", "2"}, "--etcd-members 2"},
		{"repeat 0", []string{"--repeat", "0"}, "--repeat 0: must be at least 1"},
		{"repeat negative", []string{"--repeat", "-2"}, "--repeat -2: must be 1 to 1000"},
		{"json dir missing", []string{"--json", "/nonexistent/dir/c.json"}, "--json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			var stdout, stderr bytes.Buffer
			code := executeIO(ctx, append([]string{"compare"}, tc.args...), &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if code != exit.Usage || len(lines) != 1 || !strings.Contains(lines[0], tc.want) || stdout.Len() != 0 {
				t.Fatalf("exit %d, stderr %q, stdout %q: want exit 2 and one line naming %q", code, stderr.String(), stdout.String(), tc.want)
			}
		})
	}
}

// TestCompareMatrix runs a small real matrix in-process and reads its
// JSON back: every cell is there, ratios included, and the table printed.
func TestCompareMatrix(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	redis := startMasters(t, 3)
	out := filepath.Join(t.TempDir(), "c.json")
	var stdout, stderr bytes.Buffer
	// Load-tolerant node timeouts: the subject is the matrix and its
	// table, and under load most 50 ms attempts timed out (exit 1).
	code := executeIO(context.Background(), append([]string{"compare", "-q", "--redis", redis,
		"--clients", "goredis,rueidis", "--muxes", "sequential,pipeline", "--workloads", "uncontended",
		"--workers", "8", "--warmup", "0s", "--duration", "400ms", "--json", out}, loadTolerant(10*time.Second)...), &stdout, &stderr)
	if code != exit.OK {
		t.Fatalf("compare: exit %d: %s", code, stderr.String())
	}
	sum, err := schema.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 4 || sum.Interrupted {
		t.Fatalf("%d runs, interrupted %v: want 4 complete runs", len(sum.Runs), sum.Interrupted)
	}
	for i, r := range sum.Runs {
		if r.Counts.Cycles == 0 {
			t.Errorf("%s measured no cycles", r.Name)
		}
		if r.VsSequential == nil {
			t.Errorf("%s has no vs_sequential ratio", r.Name)
		}
		if i > 0 && r.Throughput.CyclesPerS > sum.Runs[i-1].Throughput.CyclesPerS {
			t.Errorf("rows not sorted by throughput at %s", r.Name)
		}
		if !strings.Contains(stdout.String(), r.Name) {
			t.Errorf("%s not in the table:\n%s", r.Name, stdout.String())
		}
	}
	var conf struct {
		Base      *json.RawMessage `json:"base"`
		Clients   []string         `json:"clients"`
		Masters   []int            `json:"masters"`
		Workloads []string         `json:"workloads"`
	}
	if err := json.Unmarshal(sum.Config, &conf); err != nil || conf.Base == nil || len(conf.Clients) != 2 ||
		len(conf.Workloads) != 1 || fmt.Sprint(conf.Masters) != "[3]" {
		t.Errorf("summary config (err %v): %+v: want base, clients, workloads and the external masters' count", err, conf)
	}
}

// TestCompareInterrupt: Ctrl-C mid-matrix writes what was measured with
// interrupted=true, stops the masters and exits 130. The signal goes when
// the first cell has reported a measured second (its progress line), not
// after a guessed sleep.
func TestCompareInterrupt(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	out := filepath.Join(t.TempDir(), "c.json")
	p, pids := startRun(t, "compare", "--masters", "3", "--clients", "goredis", "--muxes", "sequential,fanout",
		"--workloads", "uncontended", "--workers", "4", "--warmup", "0s", "--duration", "60s", "--json", out, "--verbose")
	p.waitLine(t, "now:") // the first cell's first second measured (--verbose: a line a second)
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := p.cmd.Wait()
	if p.cmd.ProcessState.ExitCode() != exit.Interrupted {
		t.Fatalf("exit %d (%v), want %d", p.cmd.ProcessState.ExitCode(), err, exit.Interrupted)
	}
	waitGone(t, pids)
	var sum schema.Summary
	readJSON(t, out, &sum)
	if !sum.Interrupted || len(sum.Runs) != 1 || !sum.Runs[0].Interrupted || sum.Runs[0].Counts.Cycles == 0 {
		t.Fatalf("interrupted %v, %d runs: want the one cut-short cell with its cycles", sum.Interrupted, len(sum.Runs))
	}
}
