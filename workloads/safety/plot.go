package safety

import (
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/render"
)

// WriteHTML writes the points as a self-contained HTML page, one plot per
// fault (each fault's magnitude is its own axis): violations per 10⁶
// grants (log scale, upper bounds as open markers) against the fault ÷
// TTL, one line per backend and fencing mode.
func WriteHTML(w io.Writer, res Result) error {
	var plots []render.SafetyPlot
	at := map[string]int{}
	for _, p := range res.Points {
		i, ok := at[p.Fault]
		if !ok {
			i = len(plots)
			at[p.Fault] = i
			plots = append(plots, render.SafetyPlot{Title: "lockbench safety: " + p.Fault + " ÷ TTL"})
		}
		plots[i].Points = append(plots[i].Points, render.SafetyPoint{Series: p.Backend + ", fencing " + string(p.Fencing),
			Fenced: p.Fencing == FencingOn, Ratio: p.Ratio, PerMillion: p.PerMillion, Lo: p.PerMillionLo, Hi: p.PerMillionHi,
			Zero: p.Violations == 0})
	}
	return render.WriteSafetyPlots(w, "lockbench safety: "+strings.ReplaceAll(res.Config.Fault, ",", ", ")+" ÷ TTL", plots)
}
