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
// nor the allocations a run counts). A walk goes on where the last one
// stopped, so each load is a line no recent load touched and, on 4 KiB
// pages, a TLB miss whose page-table walk reads memory too: its figure is
// larger than a DRAM access alone, and moves with the same contention. Measure is safe for concurrent use;
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

// lineWords is the uint32s in a 64-byte cache line: the ring links one
// word of each line, so every load of a walk is a line of its own.
const lineWords = 16

// newMemoryProbe maps size bytes and links one word of each cache line
// into a single random cycle over all the lines (Sattolo's shuffle: every
// line on one cycle, so a walk never settles into a short loop that fits
// in a cache); nil if the memory cannot be mapped. Shuffling lines rather
// than words keeps the build to a million swaps for 64 MiB.
func newMemoryProbe(size int) *MemoryProbe {
	ring := mapRing(size / 4)
	if ring == nil {
		return nil
	}
	// The shuffle runs in place on each line's first word (no heap copy):
	// line i's word holds a line number, then the word index it links to.
	lines := len(ring) / lineWords
	for i := range lines {
		ring[i*lineWords] = uint32(i)
	}
	r := rand.New(rand.NewPCG(1, 2)) // the same cycle every run
	for i := lines - 1; i > 0; i-- {
		j := r.IntN(i)
		ring[i*lineWords], ring[j*lineWords] = ring[j*lineWords], ring[i*lineWords]
	}
	for i := range lines {
		ring[i*lineWords] *= lineWords
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
