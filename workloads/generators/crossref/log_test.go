package crossref

import (
	"math"
	"testing"
)

// TestLogKeepsTheWindowsGrants: only grants made in the measured window
// are logged, each worker's release marks its own latest grant, and a
// buffer grows past a chunk without losing any.
func TestLogKeepsTheWindowsGrants(t *testing.T) {
	l := NewLog(2)
	l.Window(100, 1_000_000)
	l.Grant(0, "k", 50, 500, 0) // warmup: not logged
	l.Release(0, "k", 60)
	for i := range int64(chunk + 10) {
		l.Grant(1, "k", 100+i, 10_000+i, uint64(i))
		l.Release(1, "k", 150+i)
	}
	l.Grant(0, "j", 200, 900, 0) // never released: its validity ends it
	l.Grant(0, "j", 2_000_000, 3_000_000, 0)
	gs := l.Grants()
	if len(gs) != chunk+11 {
		t.Fatalf("%d grants logged, want %d", len(gs), chunk+11)
	}
	var open int
	for _, g := range gs {
		if g.Release == math.MaxInt64 {
			open++
			if g.End() != g.ValidUntil {
				t.Errorf("open grant ends at %d, want its validity %d", g.End(), g.ValidUntil)
			}
		} else if g.Release != g.Granted+50 {
			t.Errorf("grant at %d released at %d, want %d", g.Granted, g.Release, g.Granted+50)
		}
	}
	if open != 1 {
		t.Errorf("%d grants without a release, want 1", open)
	}
}
