// Package rundir reads a run's directory back — its summary and the
// interval logs (.hlog) of its runs — and merges runs measured at the same
// time by several processes into one result (exact histogram merges,
// counts summed, one window). It is what merge, report and gate read runs
// with, on a run measured here, elsewhere or merged.
//
// It imports results/schema and results/record; results/output,
// results/gate, results/render and cmd/lockbench import it.
package rundir
