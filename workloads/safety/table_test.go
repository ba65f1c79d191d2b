package safety

import (
	"strings"
	"testing"
)

// TestWriteTableNotes: the notes under the table name what a point's
// counts cannot say by themselves, and nothing for a point that needs
// none.
func TestWriteTableNotes(t *testing.T) {
	base := Point{Backend: "rueidislock", Fault: FaultPause, Ratio: 2, Fencing: FencingOff, Grants: 16}
	for _, c := range []struct {
		name string
		edit func(*Point)
		want string // "" : no note
	}{
		{"nothing to note", func(*Point) {}, ""},
		{"a short point", func(p *Point) { p.Short = true }, "the time limit came after 16 grants"},
		{"a wall-clock step", func(p *Point) { p.WallClockStepMS = 2.5 }, "wall clock stepped +2.5 ms"},
		{"a step back", func(p *Point) { p.WallClockStepMS = -3 }, "wall clock stepped -3.0 ms"},
		{"a step under a millisecond", func(p *Point) { p.WallClockStepMS = 0.4 }, ""},
		{"a failover", func(p *Point) { p.FailoverMS = 1834 }, "promoted the replica 1834 ms"},
		{"writes refused out of order", func(p *Point) { p.FreshRejected = 3 }, "3 writes refused with no later grant written"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := base
			c.edit(&p)
			var b strings.Builder
			WriteTable(&b, []Point{p})
			out := b.String()
			notes := strings.Count(out, "rueidislock pause 2×TTL fencing off:")
			switch {
			case c.want == "" && notes != 0:
				t.Errorf("a note where none is due:\n%s", out)
			case c.want != "" && !strings.Contains(out, c.want):
				t.Errorf("no note %q:\n%s", c.want, out)
			}
		})
	}
}
