package lab

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// TestMostlyFailed: a run is named when more than half its attempts
// failed, with the timeouts' advice only when timeouts are the most of
// them; a run that mostly succeeded is not.
func TestMostlyFailed(t *testing.T) {
	runs := []schema.Run{
		{Name: "ok", Counts: schema.Counts{Attempts: 100, Acquired: 90, Errors: 10}},
		{Name: "errors", Counts: schema.Counts{Attempts: 100, Errors: 60, Timeouts: 10}},
		{Name: "timeouts", Workers: 64, Masters: 5, Counts: schema.Counts{Attempts: 100, Timeouts: 80}},
	}
	names, warnings := mostlyFailed(runs, 50*time.Millisecond, false)
	if !reflect.DeepEqual(names, []string{"errors", "timeouts"}) {
		t.Fatalf("names %v, want errors and timeouts", names)
	}
	if len(warnings) != 3 {
		t.Fatalf("warnings %q: want one per run and the timeouts' advice", warnings)
	}
	for i, want := range []string{"errors: 70.0 % of 100 attempts failed: 60 errors, 10 timeouts",
		"timeouts: 80.0 % of 100 attempts failed", "timeouts: --workers 64 is more than 5 masters"} {
		if !strings.HasPrefix(warnings[i], want) {
			t.Errorf("warning %d %q, want it to start %q", i, warnings[i], want)
		}
	}
	if !strings.Contains(warnings[2], "--node-timeout 50ms") {
		t.Errorf("advice %q: names no node timeout", warnings[2])
	}
}

// TestCheckFailures: mostly failed runs are an error naming them, with
// their warnings on the log, unless allowed or faults were injected; a
// nil log tells nothing.
func TestCheckFailures(t *testing.T) {
	runs := []schema.Run{
		{Name: "ok", Counts: schema.Counts{Attempts: 100, Acquired: 90, Cycles: 90, Errors: 10}},
		{Name: "errors", Counts: schema.Counts{Attempts: 100, Acquired: 40, Cycles: 40, Errors: 60}},
	}
	faulty := DefaultConfig()
	faulty.Faults = []string{"kill:masters=1:at=1s"}
	for _, c := range []struct {
		name  string
		cfg   Config
		runs  []schema.Run
		allow bool
		fails bool
	}{
		{"mostly failed", DefaultConfig(), runs, false, true},
		{"allowed", DefaultConfig(), runs, true, false},
		{"faults", faulty, runs, false, false},
		{"mostly succeeded", DefaultConfig(), runs[:1], false, false},
	} {
		var log strings.Builder
		err := CheckFailures(&log, c.cfg, c.runs, c.allow, true)
		var fe *failedError
		switch {
		case c.fails && (!errors.As(err, &fe) || !reflect.DeepEqual(fe.Runs, []string{"errors"}) || err.Error() != "more than half the attempts failed in [errors]"):
			t.Errorf("%s: error %v, want one naming errors", c.name, err)
		case !c.fails && err != nil:
			t.Errorf("%s: %v", c.name, err)
		}
		if warned := strings.HasPrefix(log.String(), "lockbench: WARNING: errors: 60.0 %"); warned != (len(c.runs) > 1) {
			t.Errorf("%s: log %q", c.name, log.String())
		}
	}
	if err := CheckFailures(nil, DefaultConfig(), runs, false, true); err == nil {
		t.Error("nil log: no error")
	}
}

// TestCheckNoProgress: a run without a grant fails as no progress whether
// stalls fail or not; a stalled run fails only when stalls fail, and is
// told either way; faults and --allow-failures accept both.
func TestCheckNoProgress(t *testing.T) {
	nogrant := schema.Run{Name: "nogrant", DurationS: 1, Counts: schema.Counts{Attempts: 5}}
	stalled := schema.Run{Name: "stalled", DurationS: 5, Counts: schema.Counts{Attempts: 9, Acquired: 9, Cycles: 9},
		Stalls: []schema.Stall{{Duration: 3 * time.Second, Cause: schema.CauseLeftoverKey}}}
	faulty := DefaultConfig()
	faulty.Faults = []string{"drop-release:at=1s"}
	for _, c := range []struct {
		name        string
		cfg         Config
		run         schema.Run
		allow, fail bool
		wantErr     bool
	}{
		{"no grant", DefaultConfig(), nogrant, false, false, true},
		{"stall fails a run", DefaultConfig(), stalled, false, true, true},
		{"stall told in a compare", DefaultConfig(), stalled, false, false, false},
		{"allowed", DefaultConfig(), nogrant, true, true, false},
		{"faults", faulty, stalled, false, true, false},
	} {
		var log strings.Builder
		err := CheckFailures(&log, c.cfg, []schema.Run{c.run}, c.allow, c.fail)
		var np *NoProgressError
		if got := errors.As(err, &np); got != c.wantErr {
			t.Errorf("%s: error %v, want a no-progress error %v", c.name, err, c.wantErr)
		}
		if !strings.Contains(log.String(), "WARNING: "+c.run.Name) {
			t.Errorf("%s: log %q tells nothing", c.name, log.String())
		}
	}
}

// TestSilentServer: a backend run that ended stalled with no attempt
// ending, or with every attempt timed out, or with workers stuck, names
// the backend as stopped answering at the stall's start, though it
// returned no error or too few for the error log; a stall with attempts
// that found the key held, or with errors among the timeouts, or none,
// names nothing.
func TestSilentServer(t *testing.T) {
	frozen := schema.Run{Stalls: []schema.Stall{{Start: 2 * time.Second, AtEnd: true, Cause: schema.CauseNoAttempts}}}
	busy := schema.Run{Stalls: []schema.Stall{{Start: 2 * time.Second, AtEnd: true, Cause: schema.CauseHeld}}}
	stuck := schema.Run{Unfinished: &schema.Unfinished{Stuck: 2}}
	timedOut := schema.Run{Stalls: []schema.Stall{{Start: 2 * time.Second, AtEnd: true, Cause: schema.CauseTimeouts, Attempts: 3, Timeouts: 3}}}
	mixed := schema.Run{Stalls: []schema.Stall{{Start: 2 * time.Second, AtEnd: true, Cause: schema.CauseTimeouts, Attempts: 5, Timeouts: 3, Errors: 2}}}
	for _, c := range []struct {
		name    string
		run     schema.Run
		stopped bool
	}{{"frozen", frozen, true}, {"stuck", stuck, true}, {"timed out", timedOut, true}, {"timeouts and errors", mixed, false}, {"held", busy, false}, {"fine", schema.Run{}, false}} {
		got := silentServer(c.run, "zookeeper")
		if stopped := len(got) == 1 && got[0].Master == "zookeeper" && got[0].StoppedS != nil; stopped != c.stopped {
			t.Errorf("%s: %+v, want stopped %v", c.name, got, c.stopped)
		}
	}
	if got := silentServer(frozen, "zookeeper"); *got[0].StoppedS != 2 {
		t.Errorf("stopped at %v, want the stall's start 2 s", *got[0].StoppedS)
	}
	if got := silentServer(timedOut, "postgres"); *got[0].StoppedS != 2 || got[0].StoppedFailures != 3 {
		t.Errorf("stopped at %v after %d failures, want the stall's start 2 s and its 3 timeouts", *got[0].StoppedS, got[0].StoppedFailures)
	}
}
