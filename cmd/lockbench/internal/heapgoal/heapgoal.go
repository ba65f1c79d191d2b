// Package heapgoal sets the garbage collector's heap goal of a lockbench
// process. The CLI calls Set once at start; importing the package changes
// no setting.
package heapgoal

import (
	"os"
	"runtime/debug"
)

// Percent is the heap's growth over the live heap that starts a
// collection: a heap goal of 1.5× the live heap, where Go's default (100)
// is 2×. A run's live heap is its referee's key logs, recorder shards and
// the client's buffers, tens of MiB that scale with cycles/s and workers;
// past it, the default goal's headroom was the largest part of a run's
// peak memory. A goal relative to the live heap keeps the collector's
// share of the CPU about the same at any scale (1–2 % here, both for 256
// and for 4,096 workers), where a fixed GOMEMLIMIT either does nothing
// for a large live heap or starves a small one.
const Percent = 50

// Set makes Percent the collector's goal, unless $GOGC chooses one (then
// the runtime has already applied it), and returns the percent in effect.
func Set() int {
	if v, ok := os.LookupEnv("GOGC"); ok && v != "" {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(Percent)
	return Percent
}
