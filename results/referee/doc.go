// Package referee is lockbench's ground truth on mutual exclusion: every
// worker tells it, on one record.Clock, when it attempts a key, what each
// attempt yielded and when it let go, and it counts what no single client
// can see — overlapping grants (violations), fencing tokens that went back,
// stale use past a lease's validity, the true class of a failed attempt
// (busy or split brain), fairness and validity margins.
//
// It owns the Referee and its hot path (no allocation, no lock shared by
// all workers, per logged grant). Its verdicts are a schema.RefereeReport,
// a plain schema type, so a schema.Run can carry them without the schema
// importing this package. It imports results/schema and results/record
// (the clock) only: nothing of workloads, drivers, compose or cmd.
package referee
