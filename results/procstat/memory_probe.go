package procstat

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// The memory probe: how long one dependent load from a buffer larger than
// the CPU's caches takes, in the probing thread's own CPU time. It is the
// machine's state that a run's cycles/s moves with and its own figures do
// not show: on a shared host, other tenants contend for the caches and
// the memory bus, every syscall and context switch of a lock cycle takes
// longer, and cycles/s falls by as much as a third while the client's and
// servers' code is the same. An ALU-bound loop (a hash) does not see it;
// a pointer chase does. Thread CPU time, not wall time, so the probe's
// own thread being scheduled out (by the run's workers or servers) does
// not count.
const (
	// probeBytes is the buffer the probe walks: larger than a server
	// CPU's last-level cache slice a VM sees.
	probeBytes = 64 << 20
	// probeLoads is the loads one sample times: ~0.1–1 ms of CPU.
	probeLoads = 2000
	// probeSamples is how many samples one MemoryProbe.Measure takes; the
	// median of them is its figure.
	probeSamples = 5
)

// MemoryProbe walks a random cycle through probeBytes of memory mapped
// outside the Go heap (so it changes neither the garbage collector's pace
// nor the allocations a run counts). Measure is safe for concurrent use;
// its calls are serialised.
type MemoryProbe struct {
	mu   sync.Mutex
	ring []uint32
	at   uint32
}

var (
	sharedProbe     *MemoryProbe
	sharedProbeOnce sync.Once
)

// SharedMemoryProbe is the process's one probe, built on first use (a
// few hundred milliseconds, once); nil where its memory cannot be mapped.
func SharedMemoryProbe() *MemoryProbe {
	sharedProbeOnce.Do(func() { sharedProbe = newMemoryProbe(probeBytes) })
	return sharedProbe
}

// newMemoryProbe maps size bytes and links them into one random cycle of
// 4-byte indexes (Sattolo's shuffle: every entry on one cycle, so a walk
// never settles into a short loop that fits in a cache); nil if the
// memory cannot be mapped.
func newMemoryProbe(size int) *MemoryProbe {
	ring := mapRing(size / 4)
	if ring == nil {
		return nil
	}
	for i := range ring {
		ring[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(1, 2)) // the same cycle every run
	for i := len(ring) - 1; i > 0; i-- {
		j := r.IntN(i)
		ring[i], ring[j] = ring[j], ring[i]
	}
	return &MemoryProbe{ring: ring}
}

// Measure times probeSamples walks of probeLoads loads on one locked OS
// thread and returns the median nanoseconds of CPU per load; 0 when p is
// nil or the thread's CPU time cannot be read.
func (p *MemoryProbe) Measure() float64 {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ns [probeSamples]float64
	for i := range ns {
		t0, ok := threadCPU()
		if !ok {
			return 0
		}
		p.at = walk(p.ring, p.at, probeLoads)
		t1, _ := threadCPU()
		ns[i] = float64(t1-t0) / probeLoads
	}
	s := ns[:]
	slices.Sort(s)
	return s[len(s)/2]
}

// walk follows n links of ring from at and returns where it stopped (the
// next walk goes on from there, into lines this one did not touch).
func walk(ring []uint32, at uint32, n int) uint32 {
	for range n {
		at = ring[at]
	}
	return at
}
