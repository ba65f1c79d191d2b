package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/results/schema"
)

// gateSummary is a run written by lockbench (results/testdata), as the
// gate's current side.
const gateSummary = "../../results/schema/testdata/v1/run-faults-pacing.json"

// TestGateCLI: the gate's exit statuses, and bad input refused with one
// line naming the flag (the library's field errors mapped to flags). The
// verdicts themselves are package gate's tests.
func TestGateCLI(t *testing.T) {
	tmp := t.TempDir()
	variant := func(name string, edit func(s *schema.Summary)) string {
		return writeVariant(t, gateSummary, filepath.Join(tmp, name+".json"), edit)
	}
	cur := variant("cur", func(*schema.Summary) {})
	faster := variant("faster", func(s *schema.Summary) {
		s.Started = s.Started.Add(1) // another run
		s.Runs[0].Throughput.CyclesPerS *= 1.3
	})
	noRuns := variant("no-runs", func(s *schema.Summary) { s.Runs = nil })
	noCounts := variant("no-counts", func(s *schema.Summary) { s.Runs[0].Counts = schema.Counts{} })
	nothing := variant("nothing", func(s *schema.Summary) { s.Runs[0].NothingMeasured = true })
	twice := variant("twice", func(s *schema.Summary) { s.Runs = append(s.Runs, s.Runs[0]) })
	v9 := variant("v9", func(s *schema.Summary) { s.Schema = "lockbench/v9" })
	otherHost := variant("other-host", func(s *schema.Summary) {
		s.Started = s.Started.Add(2)
		s.Host.CPUs, s.Host.Kernel = 64, "2.6.32"
	})
	// six runs a side, the current ones 30 % slower
	var base6, slow6 []string
	for i := range 6 {
		base6 = append(base6, variant(fmt.Sprint("base", i), func(s *schema.Summary) {
			s.Started = s.Started.Add(time.Duration(10 + i))
			s.Runs[0].Throughput.CyclesPerS *= 1 + float64(i)/100
		}))
		slow6 = append(slow6, variant(fmt.Sprint("slow", i), func(s *schema.Summary) {
			s.Started = s.Started.Add(time.Duration(20 + i))
			s.Runs[0].Throughput.CyclesPerS *= 0.7 * (1 + float64(i)/100)
		}))
	}
	baseline6 := func(args ...string) []string {
		for _, b := range base6 {
			args = append(args, "--baseline", b)
		}
		return args
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // on stderr
	}{
		{"a run compared with itself", []string{cur, "--baseline", cur}, exit.Usage, "is the same run as in"},
		{"baseline 30% faster, one run a side", []string{cur, "--baseline", faster}, exit.Inconclusive, "uncontended cycles_per_s; "},
		{"baseline 30% faster, six runs a side", baseline6(slow6...), exit.Failure, "gate failed: redlock/goredis/fanout/uncontended cycles_per_s"},
		{"!=NaN threshold", []string{cur, "--threshold", "violations!=NaN"}, exit.Usage, `--threshold "violations!=NaN": bad value "NaN"`},
		{"violations==0 on a summary without counts", []string{noCounts, "--threshold", "violations==0"}, exit.Usage, "runs[0].counts missing"},
		{"a summary that measured nothing", []string{nothing, "--threshold", "violations==0"}, exit.Usage, "measured nothing"},
		{"a run duplicated inside one summary", []string{twice, "--threshold", "violations==0"}, exit.Usage, "runs[1] \"redlock/goredis/fanout/uncontended\": is the same run as runs[0]"},
		{"an unknown schema version", []string{v9, "--threshold", "violations==0"}, exit.Usage, `schema "lockbench/v9": unknown schema version`},
		{"a baseline from another environment, strict", []string{cur, "--baseline", otherHost, "--strict-env"}, exit.Usage, "--strict-env refuses the baseline"},
		{"a baseline from another environment, named", []string{cur, "--baseline", otherHost, "--threshold", "violations==0"}, exit.Inconclusive, ""},
		{"threshold breach", []string{cur, "--threshold", "cycles_per_s>1e12"}, exit.Failure, "gate failed"},
		{"threshold holds, markdown", []string{cur, "--threshold", "violations==0", "--format", "md"}, exit.OK, ""},
		{"bad threshold", []string{cur, "--threshold", "cycle.p99<<2"}, exit.Usage, `--threshold "cycle.p99<<2"`},
		{"missing file", []string{filepath.Join(tmp, "nope.json"), "--baseline", cur}, exit.Usage, "summary "},
		{"bad format", []string{cur, "--baseline", cur, "--format", "xml"}, exit.Usage, "--format"},
		{"NaN tolerance", []string{cur, "--baseline", cur, "--throughput-tol", "NaN"}, exit.Usage, "--throughput-tol NaN"},
		{"negative tolerance", []string{cur, "--baseline", cur, "--latency-tol", "-0.5"}, exit.Usage, "--latency-tol -0.5"},
		{"NaN alpha", []string{cur, "--baseline", cur, "--alpha", "NaN"}, exit.Usage, "--alpha NaN"},
		{"unknown op", []string{cur, "--baseline", cur, "--op", "bogus"}, exit.Usage, `--op "bogus"`},
		{"op never measured", []string{cur, "--baseline", faster, "--op", "extend"}, exit.Usage, `--op extend: summary "`},
		{"baseline without runs", []string{cur, "--baseline", noRuns}, exit.Usage, `--baseline "` + noRuns + `": runs empty`},
		{"count not met", []string{cur, "--baseline", cur, "--count", "3"}, exit.Usage, "--count 3: summary has 1 run(s)"},
		{"the same run twice as samples", []string{cur, cur, "--threshold", "violations==0"}, exit.Usage, "same run"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := executeIO(context.Background(), append([]string{"gate"}, tt.args...), &stdout, &stderr)
			lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
			if code != tt.code || !strings.Contains(stderr.String(), tt.want) || code == exit.Usage && len(lines) != 1 {
				t.Fatalf("exit %d, stderr %q: want exit %d naming %q", code, stderr.String(), tt.code, tt.want)
			}
			if code != exit.Usage && !strings.Contains(stdout.String(), "gate: ") && !strings.Contains(stdout.String(), "lockbench gate") {
				t.Errorf("no verdict table on stdout: %q", stdout.String())
			}
			if strings.Contains(tt.name, "another environment, named") && !strings.Contains(stdout.String(), "baseline from another environment: cpus 64 vs 2") {
				t.Errorf("the other environment is not named: %q", stdout.String())
			}
		})
	}
}

// TestGateUntilDecided: the gate measures both sides itself with the
// given commands, each writing its summary to $LOCKBENCH_SUMMARY, in
// rounds until decided; its exit status is the verdict's.
func TestGateUntilDecided(t *testing.T) {
	tmp := t.TempDir()
	same := writeVariant(t, gateSummary, filepath.Join(tmp, "same.json"), func(*schema.Summary) {})
	slow := writeVariant(t, gateSummary, filepath.Join(tmp, "slow.json"), func(s *schema.Summary) { s.Runs[0].Throughput.CyclesPerS /= 2 })
	// a fresh start time each time: every measurement is its own run
	side := func(tmpl string) string {
		return `sed "s/\"started\": \"[^\"]*\"/\"started\": \"$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)\"/" ` + tmpl + ` > "$LOCKBENCH_SUMMARY"`
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // on stdout, or stderr for bad input
	}{
		{"the same build", []string{"--base-cmd", side(same), "--head-cmd", side(same)}, exit.OK, "decided after 8 rounds"},
		{"half the throughput", []string{"--base-cmd", side(same), "--head-cmd", side(slow)}, exit.Failure, "decided after 8 rounds"},
		{"a command that fails", []string{"--base-cmd", side(same), "--head-cmd", "echo no build >&2; exit 7"}, exit.Usage, "--head-cmd round 1: exit status 7: no build"},
		{"a command that writes no summary", []string{"--base-cmd", "true", "--head-cmd", side(same)}, exit.Usage, "--base-cmd round 1: no summary"},
		{"without a head command", []string{"--base-cmd", side(same)}, exit.Usage, "--head-cmd is needed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := executeIO(context.Background(), append([]string{"gate", "--until-decided"}, tt.args...), &stdout, &stderr)
			out := stdout.String()
			if code == exit.Usage {
				out = stderr.String()
			}
			if code != tt.code || !strings.Contains(out, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit %d saying %q", code, stdout.String(), stderr.String(), tt.code, tt.want)
			}
		})
	}
}
