// Package gate is lockbench's CI gate: it judges the runs of summaries
// against k6-style thresholds over their JSON fields ("cycle.p99<2ms") and
// against a baseline's runs (per metric an effect with its interval and a
// verdict of pass, regressed or inconclusive, Holm-corrected over the
// metrics judged), measures both sides in interleaved rounds until decided
// when asked, and refuses input no verdict can be made with, with errors that name the Options, Input or
// Request field (a CLI maps them to its flags: the tags of Request and
// Options).
//
// It owns thresholds, the metric paths of a run, the statistics and the
// verdict table. It imports results only: nothing of workloads, drivers,
// compose or cmd.
package gate
