package safety

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

// WriteHTML writes the points as a self-contained HTML page, one plot per
// fault (each fault's magnitude is its own axis): violations per 10⁶
// grants (log scale, upper bounds as open markers) against the fault ÷
// TTL, one line per backend and fencing mode. It draws res's JSON as
// lockbench report reads it (schema.SafetySweep), so the page and the
// report draw the same plots from the same keys.
func WriteHTML(w io.Writer, res Result) error {
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	sw, err := schema.ParseSafetySweep(b)
	if err != nil {
		return err
	}
	return render.WriteSafetyPlots(w, "lockbench safety: "+strings.ReplaceAll(res.Config.Fault, ",", ", ")+" ÷ TTL", render.SafetyPlots(sw.Points))
}
