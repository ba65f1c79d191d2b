package lab

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// TestErrorsNote: the line under an errors block says whether its errors
// are the expected kind, counts the measured attempts as the table does,
// and names fields as the caller does; no errors block, no line.
func TestErrorsNote(t *testing.T) {
	stopped := 1.5
	timeouts := []schema.MasterErrors{{Index: 1, Master: "m1", Errors: 3,
		Messages: []schema.ErrorCount{{Message: schema.NoAnswer + " within 50ms (SET)", Count: 3}}}}
	refused := []schema.MasterErrors{{Index: 1, Master: "m1", Errors: 3, Messages: []schema.ErrorCount{{Message: "connection refused", Count: 3}}}}
	run := func(timeouts, errs int64, m []schema.MasterErrors) schema.Run {
		return schema.Run{Counts: schema.Counts{Timeouts: timeouts, Errors: errs}, ErrorsByMaster: m}
	}
	cfg := DefaultConfig()
	cfg.Driver.Redlock.NodeTimeout = 50 * time.Millisecond
	faulted := DefaultConfig()
	faulted.Faults = []string{"kill:masters=1"}
	flag := func(f string) string { return "--" + f[strings.LastIndex(f, ".")+1:] }
	for _, tc := range []struct {
		name      string
		cfg       Config
		runs      []schema.Run
		load      float64
		want, not []string
	}{
		{"no errors", cfg, []schema.Run{run(0, 0, nil)}, 30, nil, nil},
		{"timeouts, busy", cfg, []schema.Run{run(40, 0, timeouts), run(2, 0, timeouts)}, 30,
			[]string{"42 timed out and 0 failed", "--node_timeout 50ms", "expected on this busy machine (load 30.0, 2 CPUs)"}, []string{"not expected"}},
		{"timeouts, idle", cfg, []schema.Run{run(40, 0, timeouts)}, 0.2,
			[]string{"40 timed out", "idle machine", "--workers 64", "lower it"}, []string{"expected on"}},
		{"timeouts, load unknown", cfg, []schema.Run{run(40, 0, timeouts)}, -1, []string{"expected when the machine is busy"}, nil},
		{"other errors", cfg, []schema.Run{run(5, 7, refused)}, 30, []string{"5 timed out and 7 failed", "not expected"}, []string{"STOPPED"}},
		{"a master stopped", cfg, []schema.Run{run(9, 0, []schema.MasterErrors{{Index: 2, StoppedS: &stopped}})}, 30,
			[]string{"STOPPED ANSWERING", "crashed or was cut off"}, nil},
		{"errors outside the attempts", cfg, []schema.Run{run(0, 0, refused)}, 30,
			[]string{"none of the measured attempts failed", "outside them"}, []string{"timed out"}},
		{"faults", faulted, []schema.Run{run(9, 3, refused)}, 30, []string{"faults did"}, []string{"not expected"}},
	} {
		got := errorsNote(tc.cfg, tc.runs, tc.load, 2, flag)
		if (got == "") != (tc.want == nil) || strings.Contains(got, "\n") {
			t.Errorf("%s: %q: want one line iff an errors block", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q says %q", tc.name, got, n)
			}
		}
	}
}
