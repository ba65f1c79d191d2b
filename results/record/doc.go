// Package record is the measuring side of a run, the part on the hot
// path: a Recorder per worker counts each sample into HDR bucket counters
// of a fixed set of shards (no allocation, lock or channel send per
// sample), a Registry drains them on a tick into an Interval, and Fill
// turns the merged total into a schema.Run. It also keeps the run clock
// and writes and reads the per-interval logs (.hlog); results/rundir
// reads whole run directories back and merges them.
//
// It imports results/schema. workloads (the run loop and measure), the
// lab, the referee, the renderers and the CLI import it.
package record
