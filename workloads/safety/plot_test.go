package safety

import (
	"bytes"
	"strings"
	"testing"
)

// One plot per fault: each fault's magnitude is an axis of its own.
func TestWriteHTMLPlotPerFault(t *testing.T) {
	for _, c := range []struct {
		faults []string
		plots  int
	}{
		{[]string{FaultPause, FaultPause}, 1},
		{[]string{FaultPause, FaultClockJump, FaultRestart, FaultClockJump}, 3},
	} {
		res := Result{Config: Config{Fault: strings.Join(c.faults, ",")}}
		for _, f := range c.faults {
			res.Points = append(res.Points, Point{Backend: "redlock", Fault: f, Ratio: 1, Fencing: FencingOff, Grants: 10, PerMillionHi: 3e5})
		}
		var b bytes.Buffer
		if err := WriteHTML(&b, res); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "<svg"); n != c.plots {
			t.Errorf("%v: %d plots, want %d", c.faults, n, c.plots)
		}
	}
}
