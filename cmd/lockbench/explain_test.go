package main

import (
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// TestErrorsNote: a table with an errors block gets one line saying
// whether its errors are the expected kind; one without gets none.
func TestErrorsNote(t *testing.T) {
	stopped := 1.5
	listed := []schema.MasterErrors{{Index: 1, Master: "m1", Errors: 3}}
	run := func(timeouts, errs int64, m []schema.MasterErrors) schema.Run {
		return schema.Run{Counts: schema.Counts{Timeouts: timeouts, Errors: errs}, ErrorsByMaster: m}
	}
	cfg := defaultRunConfig()
	cfg.Driver.Redlock.NodeTimeout = 50 * time.Millisecond
	faulted := defaultRunConfig()
	faulted.Faults = []string{"kill:masters=1"}
	for _, tc := range []struct {
		name      string
		cfg       RunConfig
		runs      []schema.Run
		load      float64
		want, not []string
	}{
		{"no errors", cfg, []schema.Run{run(0, 0, nil)}, 30, nil, nil},
		{"timeouts, busy", cfg, []schema.Run{run(40, 0, listed), run(2, 0, listed)}, 30,
			[]string{"42 timeouts", "--node-timeout 50ms", "expected on this busy machine (load 30.0, 2 CPUs)"}, []string{"not expected"}},
		{"timeouts, idle", cfg, []schema.Run{run(40, 0, listed)}, 0.2,
			[]string{"40 timeouts", "idle machine", "--workers 64", "lower it"}, []string{"expected on"}},
		{"timeouts, load unknown", cfg, []schema.Run{run(40, 0, listed)}, -1, []string{"expected when the machine is busy"}, nil},
		{"other errors", cfg, []schema.Run{run(5, 7, listed)}, 30, []string{"5 are timeouts", "7 are not", "not expected"}, []string{"STOPPED"}},
		{"a master stopped", cfg, []schema.Run{run(9, 0, []schema.MasterErrors{{Index: 2, StoppedS: &stopped}})}, 30,
			[]string{"STOPPED ANSWERING", "crashed or was cut off"}, nil},
		{"errors outside the attempts", cfg, []schema.Run{run(0, 0, listed)}, 30,
			[]string{"outside the measured attempts", "no attempt in the window failed"}, []string{"0 timeouts"}},
		{"faults", faulted, []schema.Run{run(9, 3, listed)}, 30, []string{"--fault"}, []string{"not expected"}},
	} {
		got := errorsNote(tc.cfg, tc.runs, tc.load, 2)
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
