package heapgoal

import (
	"runtime/debug"
	"testing"
)

// Set tightens the collector's goal to Percent; a $GOGC of the user's
// stands.
func TestSet(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	t.Setenv("GOGC", "")
	if got := Set(); got != Percent {
		t.Errorf("Set returned %d, want %d", got, Percent)
	}
	if got := debug.SetGCPercent(100); got != Percent {
		t.Errorf("GC percent %d after Set, want %d", got, Percent)
	}
	t.Setenv("GOGC", "200")
	debug.SetGCPercent(200) // as the runtime does at start from $GOGC
	if got := Set(); got != 200 {
		t.Errorf("Set under GOGC=200 returned %d, want 200", got)
	}
	if got := debug.SetGCPercent(100); got != 200 {
		t.Errorf("GC percent %d under GOGC=200, want it left at 200", got)
	}
}
