package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// TestCompareRepeatOut: with --repeat every round of a cell keeps its own
// interval logs in --out (the rounds share the run's name), and report and
// merge read each round's back; the answers (too few rounds for one) are
// under the table and in answers.json.
func TestCompareRepeatOut(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	cpuBound(t)
	redis := startMasters(t, 3)
	dir := filepath.Join(t.TempDir(), "out")
	var stdout, stderr bytes.Buffer
	// Load-tolerant node timeouts: the subject is the rounds' logs, not
	// timeouts, and a loaded machine once timed out every attempt of a
	// 300 ms cell at the default 50 ms.
	code := executeIO(context.Background(), append([]string{"compare", "-q", "--redis", redis,
		"--clients", "rueidis", "--muxes", "sequential,pipeline", "--workloads", "uncontended", "--repeat", "2",
		"--workers", "4", "--warmup", "0s", "--duration", "300ms", "--out", dir}, loadTolerant(10*time.Second)...), &stdout, &stderr)
	if code != exit.OK {
		t.Fatalf("compare: exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"answers (budget: 2 rounds × 2 cells", "answer: none at 2 round(s) per cell"} {
		if !bytes.Contains(stdout.Bytes(), []byte(want)) {
			t.Errorf("no %q under the table:\n%s", want, stdout.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "answers.json")); err != nil {
		t.Errorf("answers.json: %v", err)
	}
	d, err := rundir.ReadRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Summary.Runs) != 4 {
		t.Fatalf("%d runs: want 2 cells × 2 rounds", len(d.Summary.Runs))
	}
	for _, r := range d.Summary.Runs {
		l, ok := d.Logs[record.LogName(r)]
		if !ok {
			t.Fatalf("%s round %d: no interval logs read back", r.Name, r.Repeat)
		}
		// The round's own logs: their cycles are the round's, not another's.
		if got := l.Total(schema.OpCycle.String()).TotalCount(); got != r.LatencyUS[schema.OpCycle.String()].Count {
			t.Errorf("%s round %d: logs hold %d cycles, the run %d", r.Name, r.Repeat, got, r.LatencyUS[schema.OpCycle.String()].Count)
		}
	}
	html := filepath.Join(t.TempDir(), "r.html")
	if code := executeIO(context.Background(), []string{"report", dir, "-o", html}, &stdout, &stderr); code != exit.OK {
		t.Fatalf("report: exit %d: %s", code, stderr.String())
	}
	if fi, err := os.Stat(html); err != nil || fi.Size() == 0 {
		t.Fatalf("report wrote nothing: %v", err)
	}
}
