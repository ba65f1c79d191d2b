package render

import (
	"fmt"
	"html/template"

	"github.com/lockbench/lockbench/results/schema"
)

// reportSafety is one safety sweep of the report: its source and its
// plots, one per fault, drawn as its own --html page draws them.
type reportSafety struct {
	Source int
	Plots  []SafetyPlot
}

// AddSafety adds a safety sweep (lockbench safety --json): its config and
// plan line as a source, its points as a plot per fault.
func (r *Report) AddSafety(path string, s *schema.SafetySweep) {
	r.Sources = append(r.Sources, reportInput{Path: path, Kind: "safety", Started: s.Started, Interrupted: s.Interrupted,
		Config: s.Config, Plan: s.Plan})
	r.Safety = append(r.Safety, reportSafety{Source: len(r.Sources) - 1, Plots: SafetyPlots(s.Points)})
}

// safetySection is a safety sweep as the page's template draws it.
type safetySection struct {
	Heading string
	Plots   []template.HTML
}

// safetySections are r's safety sweeps headed as the config section heads
// their sources ("[2] safety.json").
func (r *Report) safetySections() []safetySection {
	var out []safetySection
	for _, s := range r.Safety {
		src := r.Sources[s.Source]
		sec := safetySection{Heading: fmt.Sprintf("[%d] %s", s.Source+1, src.Path)}
		if src.Interrupted {
			sec.Heading += " (interrupted)"
		}
		for _, p := range s.Plots {
			sec.Plots = append(sec.Plots, template.HTML(SafetySVG(p.Title, p.Points))) // SafetySVG escapes its text
		}
		out = append(out, sec)
	}
	return out
}
