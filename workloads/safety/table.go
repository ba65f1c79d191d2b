package safety

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/lockbench/lockbench/results/render"
)

// WriteTable prints one row per point: the fault and its magnitude, the grants,
// the violations and their rate per 10⁶ grants with its 95 % interval, and
// the stale writes the resource accepted and refused. Notes under the
// table say what a violation is and which points ran short.
// wallStepNoted is the least wall-clock step (ms) a note names: what a
// key's expiry in whole milliseconds can feel.
const wallStepNoted = 1

func WriteTable(w io.Writer, points []Point) {
	fmt.Fprintln(w, render.Wrap("violations: overlapping grants (referee) + stale writes the resource accepted; "+
		"per 10⁶ grants with an exact 95% Poisson interval, [0, 3/grants] for none (rule of three)", render.TableWidth))
	t := render.NewTable(w, render.TableWidth)
	t.Header("backend", "fault", "÷ TTL", "fencing", "grants", "viol-\nations", "per 10⁶", "95% interval", "stale\naccepted", "stale\nrefused")
	var notes []string
	for _, p := range points {
		_ = t.Append(p.Backend, p.Fault, strconv.FormatFloat(p.Ratio, 'g', -1, 64), string(p.Fencing), strconv.FormatInt(p.Grants, 10),
			strconv.FormatInt(p.Violations, 10), num(p.PerMillion), "["+num(p.PerMillionLo)+", "+num(p.PerMillionHi)+"]",
			strconv.FormatInt(p.StaleAccepted, 10), strconv.FormatInt(p.StaleRejected, 10))
		name := fmt.Sprintf("%s %s %g×TTL fencing %s", p.Backend, p.Fault, p.Ratio, p.Fencing)
		switch {
		case p.Interrupted:
			notes = append(notes, name+": interrupted; its counts are partial")
		case p.Short:
			notes = append(notes, fmt.Sprintf("%s: the time limit came after %d grants, before the budget", name, p.Grants))
		}
		if p.TokenErrors > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d grants without a fencing token (the counter's master was down): their writes were not made", name, p.TokenErrors))
		}
		if len(p.FaultErrors) > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d fault events failed, first: %s", name, len(p.FaultErrors), p.FaultErrors[0]))
		}
		if p.FailoverMS > 0 {
			notes = append(notes, fmt.Sprintf("%s: the Sentinel promoted the replica %.0f ms after the master's kill", name, p.FailoverMS))
		}
		if math.Abs(p.WallClockStepMS) >= wallStepNoted {
			notes = append(notes, fmt.Sprintf("%s: the host's wall clock stepped %+.1f ms against its monotonic clock; "+
				"a Redis key expires by the wall clock, the referee's validity by the monotonic one", name, p.WallClockStepMS))
		}
		if p.FreshRejected > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d writes refused with no later grant written (tokens out of grant order)", name, p.FreshRejected))
		}
	}
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Header.Alignment.PerColumn = []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft}
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft}
		cfg.Row.Formatting.AutoWrap = tw.WrapNone
	})
	_ = t.Render()
	for _, n := range notes {
		fmt.Fprintln(w, render.Wrap(n, render.TableWidth))
	}
}

// num is a rate with the digits that matter: whole numbers from 10 up,
// three significant digits below.
func num(v float64) string {
	if v == 0 || v >= 10 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
