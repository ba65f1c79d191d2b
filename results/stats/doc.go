// Package stats turns samples into answers: runs of one cell repeated in
// rounds become one row (the median round, its spread, complete rounds
// only), and a median gets a distribution-free confidence interval that
// says whether two cells differ or the difference is inside the noise.
//
// It imports results/schema. compare, sweep, the gate, the renderers and
// the CLI import it.
package stats
