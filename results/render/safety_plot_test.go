package render

import (
	"strings"
	"testing"
)

// A point with violations is a filled marker with its interval; one
// without is an open marker at its upper bound; each series is a line in
// the legend, dashed when fenced.
func TestSafetySVG(t *testing.T) {
	pts := []SafetyPoint{
		{Series: "redlock, fencing off", Ratio: 0.5, Hi: 15000, Zero: true},
		{Series: "redlock, fencing off", Ratio: 2, PerMillion: 920000, Lo: 790000, Hi: 1060000},
		{Series: "redlock, fencing on", Fenced: true, Ratio: 0.5, Hi: 15000, Zero: true},
		{Series: "redlock, fencing on", Fenced: true, Ratio: 2, Hi: 15000, Zero: true},
	}
	svg := SafetySVG("t", pts)
	for _, c := range []struct {
		what string
		n    int
	}{
		{`fill="white"`, 3},           // open markers: the zero points
		{"<polyline", 2},              // a line per series
		{`stroke-dasharray="6 4"`, 2}, // the fenced line and its legend entry
		{"(≤ 15000 per 10⁶)", 3},      // the bounds, in the markers' titles
		{"920000 per 10⁶ [790000, 1060000]", 1},
	} {
		if got := strings.Count(svg, c.what); got != c.n {
			t.Errorf("%q: %d times, want %d", c.what, got, c.n)
		}
	}
	if !strings.Contains(svg, ">1e6<") || !strings.Contains(svg, ">1e4<") {
		t.Errorf("log axis lacks its decades:\n%s", svg)
	}
}
