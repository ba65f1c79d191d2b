package faults

import (
	"slices"
	"testing"
)

// FuzzParse: whatever a user types as --fault, parse returns a fault or
// an error, never a panic; a fault has a known kind, and its spec parses
// to the same fault again.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"kill:masters=3:at=5s:restart=delayed:delay=ttl+1s", "stop:masters=1:at=5s:for=2s",
		"latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s", "partition:masters=1,2:at=5s:for=3s", "reset:masters=4:at=9s",
		"pause-client:workers=1:at=2s:for=ttl+1s", "clock-jump:masters=2:+5s:at=2s:for=3s", "drop-release:at=1s", "kill:", "::=:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		ft, err := parse(spec)
		if err != nil {
			return
		}
		if !slices.Contains(kinds, ft.Kind) {
			t.Fatalf("%q: kind %q is none of %v", spec, ft.Kind, kinds)
		}
		again, err := parse(ft.Spec)
		if err != nil || !slices.Equal(again.Masters, ft.Masters) || again.Kind != ft.Kind || again.At != ft.At || again.For != ft.For {
			t.Fatalf("%q parses as %+v, its spec again as %+v (%v)", spec, ft, again, err)
		}
	})
}
