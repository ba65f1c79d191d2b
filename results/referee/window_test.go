package referee

import (
	"testing"

	"github.com/lockbench/lockbench/results/record"
)

// TestRefereeWindow: a grant is judged (acquisitions, fairness, validity
// margin, overlaps) if and only if it was granted in [from, until) — the
// registry's rule for counting the same acquisition.
func TestRefereeWindow(t *testing.T) {
	const from, until = 1000, 2000
	cases := []struct {
		name    string
		granted int64
		in      bool
	}{
		{"in the warmup", from - 1, false},
		{"at the window start", from, true},
		{"last nanosecond", until - 1, true},
		{"at the deadline", until, false},
		{"after the deadline", until + 500, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := New(2, record.NewClock(), 0)
			r.CountWindow(from, until)
			// Worker 1 already holds the key: the grant overlaps it.
			r.Granted(1, "k", 0, 0, 1_000_000, 0)
			r.Attempting(0, "k", c.granted-10)
			r.Granted(0, "k", c.granted-10, c.granted, c.granted+500, 0)
			rep := r.Report()
			want := map[bool]int64{true: 1, false: 0}[c.in]
			if rep.Acquisitions[0] != want || rep.MarginUS.Count != want || rep.Overlaps != want {
				t.Errorf("granted at %d: acquisitions %v, margins %d, overlaps %d; want %d each",
					c.granted, rep.Acquisitions, rep.MarginUS.Count, rep.Overlaps, want)
			}
		})
	}
}
