//go:build !linux

package procstat

import "time"

// threadCPU is the wall clock where there is no per-thread CPU clock: it
// also counts the thread's time scheduled out.
func threadCPU() (time.Duration, bool) { return time.Duration(time.Now().UnixNano()), true }

// mapRing is an ordinary slice where the probe cannot map memory of its
// own: it then counts in the Go heap.
func mapRing(n int) []uint32 { return make([]uint32, n) }

// unmapRing leaves the slice to the garbage collector.
func unmapRing([]uint32) {}

// lastLevelCache is unknown here: the probe takes probeBytes.
func lastLevelCache() int { return 0 }
