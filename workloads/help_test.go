package workloads

import (
	"strings"
	"testing"
)

// TestWriteHelp: every workload, hold-time distribution and pacing mode
// is listed with its description.
func TestWriteHelp(t *testing.T) {
	var b strings.Builder
	if err := WriteHelp(&b); err != nil {
		t.Fatal(err)
	}
	for _, m := range []map[string]string{Generators(), holdDists, pacingModes} {
		for name, what := range m {
			if !strings.Contains(b.String(), name) || !strings.Contains(b.String(), what) {
				t.Errorf("%s (%s) not listed:\n%s", name, what, b.String())
			}
		}
	}
}
