package safety

import (
	"io"

	"github.com/lockbench/lockbench/results/render"
)

// WriteHTML writes the points as a self-contained HTML page: violations
// per 10⁶ grants (log scale, upper bounds as open markers) against the
// fault ÷ TTL, one line per backend and fencing mode.
func WriteHTML(w io.Writer, res Result) error {
	pts := make([]render.SafetyPoint, len(res.Points))
	for i, p := range res.Points {
		pts[i] = render.SafetyPoint{Series: p.Backend + ", fencing " + string(p.Fencing), Fenced: p.Fencing == FencingOn,
			Ratio: p.Ratio, PerMillion: p.PerMillion, Lo: p.PerMillionLo, Hi: p.PerMillionHi, Zero: p.Violations == 0}
	}
	return render.WriteSafetyHTML(w, "lockbench safety: "+res.Config.Fault+" ÷ TTL", pts)
}
