package main

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// TestMeasuredWindow: end to end, every cell's duration_s is --duration
// (1 % + 10 ms) whatever the warmup, and the referee judged exactly the
// acquisitions counted (validity-margin count = counts.acquired).
func TestMeasuredWindow(t *testing.T) {
	testenv.Servers(t)
	cases := []struct {
		name     string
		args     []string
		duration time.Duration
	}{
		{"run, warmup not a whole second", []string{"run", "--duration", "1s", "--warmup", "300ms"}, time.Second},
		{"run, warmup longer than the duration", []string{"run", "--duration", "400ms", "--warmup", "900ms"}, 400 * time.Millisecond},
		{"compare, contended", []string{"compare", "--clients", "goredis", "--muxes", "sequential,pipeline", "--workloads", "contended",
			"--keys", "2", "--duration", "1500ms", "--warmup", "250ms"}, 1500 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "s.json")
			args := append(append([]string{}, c.args...), "-q", "--masters", "3", "--workers", "8", "--json", out)
			_, stderr, code := cli(t, 120*time.Second, args...)
			if code != exit.OK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var sum schema.Summary
			readJSON(t, out, &sum)
			if len(sum.Runs) == 0 {
				t.Fatal("no runs")
			}
			for _, r := range sum.Runs {
				slack := 0.01*c.duration.Seconds() + 0.010
				if math.Abs(r.DurationS-c.duration.Seconds()) > slack {
					t.Errorf("%s: duration_s %.4f, want %.3f ± %.3f", r.Name, r.DurationS, c.duration.Seconds(), slack)
				}
				if r.Counts.Acquired == 0 || r.ValidityMarginUS == nil || r.ValidityMarginUS.Count != r.Counts.Acquired {
					t.Errorf("%s: referee judged %+v grants, counts.acquired %d", r.Name, r.ValidityMarginUS, r.Counts.Acquired)
				}
			}
		})
	}
}
