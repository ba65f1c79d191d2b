// Package sweep is lockbench's capacity sweep as a library: it raises the
// load on one cell (lab.Config) step by step until a step breaks its SLO,
// confirms that failure and the step below it on the medians of repeated
// measurements, bisects between them, and reports the knee, the highest
// load that held, with the lowest that failed, for each multiplexing
// strategy.
//
// The knee is judged on the curve: a step that fails on its p99 alone
// while a load half a step above it holds is the host's noise, not queueing, and
// does not end the climb. After the search the steps around the knee are
// measured again in interleaved rounds (IntervalRounds) for the interval
// a rerun's knee lands in (knee_interval, widened where a step's rounds
// disagree, and, where any measurements disagree, to the middle 95 % of
// the knees of reruns simulated on the pass curve they fit; with the
// reasons); the safe rate is the highest load every
// measurement of which met the SLO. A sweep by workers fits the Universal
// Scalability Law to its throughput (gonum's optimize); TargetRate turns
// the knee's cost per cycle into a plan (cores, masters, workers).
//
// It owns the step plan (stepping by open-loop rate or by closed-loop
// workers: Start, Factor, MaxSteps, Refine, Repeat), the knee search, the
// judgement of a step on its measurements' medians (p99 against the SLO,
// errors, violations, keeping up with the rate) and running the steps on
// a lab, a canceled ctx returning what was measured. Its Config
// serialises into the summary; its errors name Config fields by JSON path
// (fielderr.Error), which a CLI maps to its flags: the tags of Config
// (internal/flagtag). Literal reads a Config as flags give it, a zero
// being zero rather than the default.
//
// It may import workloads/lab, results and results/schema; it never
// imports cmd, and nothing under drivers, multiplex, results or compose
// may import it. Writing the results (summary, --out, the runs table) is
// the caller's; the knees table and a step's progress line are WriteKnees
// and StepLine.
package sweep
