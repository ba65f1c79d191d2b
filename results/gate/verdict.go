package gate

import (
	"strings"

	"github.com/lockbench/lockbench/internal/exit"
)

// Decision is a verdict: the whole gate's, or one check's.
type Decision int

const (
	// Pass: within tolerance, shown at the gate's confidence.
	pass Decision = iota
	// Inconclusive: neither a regression nor a pass can be shown with the
	// samples there are (too few, or too noisy for the tolerance).
	Inconclusive
	// Regressed: worse than the baseline beyond tolerance, shown at the
	// gate's confidence; or a threshold breached, or a run gone missing.
	Regressed
)

func (o Decision) String() string {
	switch o {
	case Regressed:
		return "regressed"
	case Inconclusive:
		return "inconclusive"
	}
	return "pass"
}

// Row is one check.
type Row struct {
	Run, Check string
	// Path is the metric's JSON path (its unit follows from it); "" for
	// rows that compare no metric.
	Path              string
	Baseline, Current float64 // medians; Baseline NaN for thresholds
	// Change is the effect, current vs baseline as a relative change
	// (Hodges–Lehmann on the log scale: +0.12 is 12 % higher), and Lo, Hi
	// its 1−α interval; NaN for thresholds.
	Change, Lo, Hi float64
	Tol            float64 // accepted relative change in the bad direction
	// P is the Holm-adjusted p of "no worse than the baseline": small means
	// worse. NaN when not tested.
	P        float64
	Samples  [2]int // baseline, current
	Decision Decision
	Note     string
}

// Verdict is the gate's judgement: one row per check.
type Verdict struct {
	Rows []Row
	// Decision is the worst of the rows': regressed if any row is,
	// else inconclusive if any row is, else pass.
	Decision Decision
	// Failed: the gate found a regression or a breached threshold.
	Failed bool
	// Env lists how the baseline's environment differs from the current
	// runs' ("cpus 2 vs 4"); empty when alike.
	Env []string
	// Rounds says how --until-decided ended ("decided after 8 rounds");
	// "" when samples were given.
	Rounds string
	// Machine compares the sides' memory probes (machineNote); "" without
	// a baseline or probes.
	Machine string
	// Warnings: what Check allowed but is rarely meant (summaries of
	// different configs, interrupted runs).
	Warnings []*FieldError
}

func (v *Verdict) add(r Row) {
	v.Rows = append(v.Rows, r)
	v.Decision = max(v.Decision, r.Decision)
	v.Failed = v.Decision == Regressed
}

// FailedChecks are the rows that regressed, each as "RUN CHECK".
func (v Verdict) FailedChecks() []string { return v.checks(Regressed) }

// UndecidedChecks are the inconclusive rows, each as "RUN CHECK".
func (v Verdict) UndecidedChecks() []string { return v.checks(Inconclusive) }

// Err is v as the end of a gate: nil for a pass; an exit.Error of
// exit.Failure naming the checks that regressed, or of exit.Inconclusive
// naming the undecided ones (when nothing was judged at all, why not).
func (v Verdict) Err() error {
	switch v.Decision {
	case Regressed:
		return exit.Error{Code: exit.Failure, Msg: "gate failed: " + strings.Join(v.FailedChecks(), "; ")}
	case Inconclusive:
		why := strings.Join(v.UndecidedChecks(), "; ")
		if why == "" { // nothing judged at all: say why not
			why = v.Rounds
		}
		return exit.Error{Code: exit.Inconclusive, Msg: "gate inconclusive: " + why +
			" (more runs a side, or --until-decided, may decide)"}
	}
	return nil
}

func (v Verdict) checks(o Decision) []string {
	var out []string
	for _, r := range v.Rows {
		if r.Decision == o {
			out = append(out, r.Run+" "+r.Check)
		}
	}
	return out
}
