// Package generators makes N lockbench processes one run: they join
// through an etcd they all reach (the coordination store, not under test),
// agree on the plan (generator 0 publishes its config, the others check
// theirs is the same), measure their clock offset against the masters'
// clock, wait at one start barrier and measure the same window. While they
// run, each publishes its histograms once a second; generator 0 merges
// them (exact HDR merge), shows the merged figures and judges live
// thresholds; any generator that sees another vanish (its lease expired: a
// kill -9, a lost node) aborts the run, naming it. At the end generator 0
// merges the generators' results into one summary and judges the grants
// across generators (workloads/generators/crossref).
//
// Every key of a run lives under a lease of the generator that wrote it,
// so a run that died leaves nothing behind in the store once its leases
// expire.
//
// Run is one cell measured this way and Compare a whole compare, each
// cell and round of it one such run: a process calls Do with what it
// measures on (its lab) and how it writes results, and ends with the
// verdict generator 0 gave every generator (ExitThreshold, ExitLost, or
// the caller's own failure checks). The protocol underneath (Join, Member,
// Barrier, the live view, PublishResult and Collect) is there for a
// caller that orchestrates otherwise.
package generators
