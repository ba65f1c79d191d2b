package lab

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
)

// TestMostlyFailed: a run is named when more than half its attempts
// failed, with the timeouts' advice only when timeouts are the most of
// them; a run that mostly succeeded is not.
func TestMostlyFailed(t *testing.T) {
	runs := []results.Run{
		{Name: "ok", Counts: results.Counts{Attempts: 100, Acquired: 90, Errors: 10}},
		{Name: "errors", Counts: results.Counts{Attempts: 100, Errors: 60, Timeouts: 10}},
		{Name: "timeouts", Workers: 64, Masters: 5, Counts: results.Counts{Attempts: 100, Timeouts: 80}},
	}
	names, warnings := MostlyFailed(runs, 50*time.Millisecond)
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
