package render

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// SafetyPoint is one point of a safety sweep as the plot draws it: its
// series (backend and fencing mode), its fault magnitude ÷ TTL, and its
// violations per 10⁶ grants with the 95 % interval; Zero marks a point
// without violations, drawn at its upper bound as an open marker.
type SafetyPoint struct {
	Series     string
	Fenced     bool
	Ratio      float64
	PerMillion float64
	Lo, Hi     float64
	Zero       bool
}

// Geometry of the safety plot, in SVG units.
const (
	plotW, plotH           = 760, 440
	plotLeft, plotRight    = 70, 190 // the legend sits right of the axes
	plotTop, plotBottom    = 30, 50
	safetyMarker           = 5
	safetyDodge            = 2*safetyMarker + 1 // markers of a ratio side by side, not on one another
	safetyAxisColor        = "#444"
	safetyGridColor        = "#ddd"
	safetyUnfencedDash     = ""
	safetyFencedDash       = "6 4"
	safetyTitleFontSize    = 15
	safetyAxisFontSize     = 12
	safetyLegendLineHeight = 18
)

var safetyColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// WriteSafetyHTML writes a self-contained HTML page plotting points:
// violations per 10⁶ grants (log scale) against the fault ÷ TTL, one line
// per series (solid without fencing, dashed with), a filled marker with
// its interval where there were violations, an open marker at the upper
// bound where there were none.
func WriteSafetyHTML(w io.Writer, title string, points []SafetyPoint) error {
	return WriteSafetyPlots(w, title, []SafetyPlot{{Title: title, Points: points}})
}

// SafetyPlot is one plot of a page: the points of one fault, whose
// magnitudes share an axis.
type SafetyPlot struct {
	Title  string
	Points []SafetyPoint
}

// SafetyPlots are a safety sweep's points as its page draws them: one
// plot per fault, in the order the faults first come (each fault's
// magnitude is an axis of its own), one series per backend and fencing
// mode.
func SafetyPlots(points []schema.SafetyPoint) []SafetyPlot {
	var plots []SafetyPlot
	at := map[string]int{}
	for _, p := range points {
		i, ok := at[p.Fault]
		if !ok {
			i = len(plots)
			at[p.Fault] = i
			plots = append(plots, SafetyPlot{Title: "lockbench safety: " + p.Fault + " ÷ TTL"})
		}
		plots[i].Points = append(plots[i].Points, SafetyPoint{Series: p.Backend + ", fencing " + p.Fencing,
			Fenced: p.Fencing == "on", Ratio: p.Ratio, PerMillion: p.PerMillion, Lo: p.PerMillionLo, Hi: p.PerMillionHi,
			Zero: p.Violations == 0})
	}
	return plots
}

// SafetyCaption says how to read the plots, under them.
const SafetyCaption = "Filled markers: measured rate with its exact 95 % Poisson interval. Open markers: no violation; " +
	"drawn at the upper bound 3/grants (rule of three). Dashed lines: with fencing."

// WriteSafetyPlots writes a self-contained HTML page titled title with
// one plot (SafetySVG) per element of plots, in order.
func WriteSafetyPlots(w io.Writer, title string, plots []SafetyPlot) error {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>%s</title></head>\n<body style=\"font-family:sans-serif\">\n", html.EscapeString(title))
	for _, p := range plots {
		b.WriteString(SafetySVG(p.Title, p.Points))
		b.WriteString("\n")
	}
	b.WriteString("\n<p>" + SafetyCaption + "</p>\n</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// SafetySVG is the plot of WriteSafetyHTML alone.
func SafetySVG(title string, points []SafetyPoint) string {
	var series []string
	by := map[string][]SafetyPoint{}
	maxX, lo, hi := 0.0, math.Inf(1), 0.0
	for _, p := range points {
		if _, ok := by[p.Series]; !ok {
			series = append(series, p.Series)
		}
		by[p.Series] = append(by[p.Series], p)
		maxX = math.Max(maxX, p.Ratio)
		for _, v := range []float64{p.Lo, p.PerMillion, p.Hi} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi == 0 {
		lo, hi = 1, 1e6
	}
	decLo, decHi := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if decHi <= decLo {
		decHi = decLo + 1
	}
	if maxX == 0 {
		maxX = 1
	}
	maxX *= 1.1
	iw, ih := float64(plotW-plotLeft-plotRight), float64(plotH-plotTop-plotBottom)
	x := func(r float64) float64 { return plotLeft + r/maxX*iw }
	y := func(v float64) float64 {
		if v <= 0 {
			return plotTop + ih // the floor of the axis
		}
		return plotTop + ih - (math.Log10(v)-decLo)/(decHi-decLo)*ih
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">`, plotW, plotH, plotW, plotH)
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="%d">%s</text>`, plotLeft, safetyTitleFontSize, html.EscapeString(title))
	for d := decLo; d <= decHi; d++ {
		yy := y(math.Pow(10, d))
		fmt.Fprintf(&b, `<line x1="%d" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>`, plotLeft, plotLeft+iw, yy, yy, safetyGridColor)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="%d" text-anchor="end">1e%d</text>`, plotLeft-6, yy+4, safetyAxisFontSize, int(d))
	}
	ticks := map[float64]bool{}
	for _, p := range points {
		ticks[p.Ratio] = true
	}
	var xs []float64
	for r := range ticks {
		xs = append(xs, r)
	}
	sort.Float64s(xs)
	for _, r := range xs {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%.1f" stroke="%s"/>`, x(r), x(r), plotTop, plotTop+ih, safetyGridColor)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%d" text-anchor="middle">%g</text>`, x(r), plotTop+ih+16, safetyAxisFontSize, r)
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%.1f" fill="none" stroke="%s"/>`, plotLeft, plotTop, iw, ih, safetyAxisColor)
	fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="%d" text-anchor="middle">fault ÷ TTL</text>`, plotLeft+iw/2, plotH-10, safetyAxisFontSize)
	fmt.Fprintf(&b, `<text transform="translate(16 %.1f) rotate(-90)" font-size="%d" text-anchor="middle">violations per 10⁶ grants</text>`, plotTop+ih/2, safetyAxisFontSize)
	for i, s := range series {
		color := safetyColors[i%len(safetyColors)]
		ps := by[s]
		sort.Slice(ps, func(a, c int) bool { return ps[a].Ratio < ps[c].Ratio })
		dash := safetyUnfencedDash
		if ps[0].Fenced {
			dash = safetyFencedDash
		}
		// Series side by side at each ratio (a few units apart), so equal
		// rates of two series do not hide one another.
		dodge := (float64(i) - float64(len(series)-1)/2) * safetyDodge
		var line []string
		for _, p := range ps {
			v := p.PerMillion
			if p.Zero {
				v = p.Hi
			}
			line = append(line, fmt.Sprintf("%.1f,%.1f", x(p.Ratio)+dodge, y(v)))
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"/>`, strings.Join(line, " "), color, dash)
		for _, p := range ps {
			px := x(p.Ratio) + dodge
			if p.Zero {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%d" fill="white" stroke="%s" stroke-width="1.5"><title>%s %g: 0 (≤ %.0f per 10⁶)</title></circle>`,
					px, y(p.Hi), safetyMarker, color, html.EscapeString(s), p.Ratio, p.Hi)
				continue
			}
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>`, px, px, y(p.Lo), y(p.Hi), color)
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%d" fill="%s"><title>%s %g: %.0f per 10⁶ [%.0f, %.0f]</title></circle>`,
				px, y(p.PerMillion), safetyMarker, color, html.EscapeString(s), p.Ratio, p.PerMillion, p.Lo, p.Hi)
		}
		ly := float64(plotTop + 10 + i*safetyLegendLineHeight)
		lx := float64(plotW - plotRight + 14)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5" stroke-dasharray="%s"/>`, lx, lx+24, ly, ly, color, dash)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%d">%s</text>`, lx+30, ly+4, safetyAxisFontSize, html.EscapeString(s))
	}
	b.WriteString("</svg>")
	return b.String()
}
