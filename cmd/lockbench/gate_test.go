package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results"
)

// gateSummary is a run written by lockbench (results/testdata), as the
// gate's current side.
const gateSummary = "../../results/testdata/v1/run-faults-pacing.json"

// TestGateCLI: the gate's exit statuses, and bad input refused with one
// line naming the flag (the library's field errors mapped to flags). The
// verdicts themselves are package gate's tests.
func TestGateCLI(t *testing.T) {
	tmp := t.TempDir()
	variant := func(name string, edit func(s *results.Summary)) string {
		return writeVariant(t, gateSummary, filepath.Join(tmp, name+".json"), edit)
	}
	cur := variant("cur", func(*results.Summary) {})
	faster := variant("faster", func(s *results.Summary) {
		s.Started = s.Started.Add(1) // another run
		s.Runs[0].Throughput.CyclesPerS *= 1.3
	})
	noRuns := variant("no-runs", func(s *results.Summary) { s.Runs = nil })
	tests := []struct {
		name string
		args []string
		code int
		want string // on stderr
	}{
		{"against itself", []string{cur, "--baseline", cur}, exitOK, ""},
		{"baseline 30% faster", []string{cur, "--baseline", faster}, exitFailure, "gate failed"},
		{"threshold breach", []string{cur, "--threshold", "cycles_per_s>1e12"}, exitFailure, "gate failed"},
		{"threshold holds, markdown", []string{cur, "--threshold", "violations==0", "--format", "md"}, exitOK, ""},
		{"bad threshold", []string{cur, "--threshold", "cycle.p99<<2"}, exitUsage, `--threshold "cycle.p99<<2"`},
		{"missing file", []string{filepath.Join(tmp, "nope.json"), "--baseline", cur}, exitUsage, "summary "},
		{"bad format", []string{cur, "--baseline", cur, "--format", "xml"}, exitUsage, "--format"},
		{"NaN tolerance", []string{cur, "--baseline", cur, "--throughput-tol", "NaN"}, exitUsage, "--throughput-tol NaN"},
		{"negative tolerance", []string{cur, "--baseline", cur, "--latency-tol", "-0.5"}, exitUsage, "--latency-tol -0.5"},
		{"NaN alpha", []string{cur, "--baseline", cur, "--alpha", "NaN"}, exitUsage, "--alpha NaN"},
		{"unknown op", []string{cur, "--baseline", cur, "--op", "bogus"}, exitUsage, `--op "bogus"`},
		{"op never measured", []string{cur, "--baseline", faster, "--op", "extend"}, exitUsage, `--op extend: summary "`},
		{"baseline without runs", []string{cur, "--baseline", noRuns}, exitUsage, `--baseline "` + noRuns + `": the summary has no runs`},
		{"count not met", []string{cur, "--baseline", cur, "--count", "3"}, exitUsage, "--count 3: summary has 1 run(s)"},
		{"the same run twice as samples", []string{cur, cur, "--threshold", "violations==0"}, exitUsage, "same run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := executeIO(context.Background(), append([]string{"gate"}, tt.args...), &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) || code == exitUsage && len(lines) != 1 {
				t.Fatalf("exit %d, stderr %q: want exit %d naming %q", code, stderr.String(), tt.code, tt.want)
			}
			if code != exitUsage && !strings.Contains(stdout.String(), "gate: ") && !strings.Contains(stdout.String(), "lockbench gate") {
				t.Errorf("no verdict table on stdout: %q", stdout.String())
			}
		})
	}
}
