package main

import (
	"encoding/csv"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestFormatCSV: --format csv prints the runs table as CSV, one row per
// run, the counts as the JSON has them; with --json - it is bad input.
func TestFormatCSV(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	stdout, stderr, code := cli(t, time.Minute, "run", "--masters", "1", "--workers", "2", "--duration", "700ms", "--warmup", "0s", "--format", "csv", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if len(recs) != 2 || recs[0][0] != "name" || recs[1][0] != "redlock/goredis/"+lab.DefaultMux+"/uncontended" {
		t.Fatalf("want a header and one run:\n%s", stdout)
	}
	_, stderr, code = cli(t, 10*time.Second, "run", "--format", "csv", "--json", "-")
	if code != exit.Usage || !strings.Contains(stderr, "--format csv") {
		t.Errorf("--format csv --json -: exit %d, %q", code, stderr)
	}
}
