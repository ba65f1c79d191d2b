package procstat

import (
	"math/rand/v2"
	"runtime"
	"runtime/debug"
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
	// probeBytes is the ring where the last-level cache's size cannot
	// be read: larger than a server CPU's last-level cache slice a VM sees.
	probeBytes = 64 << 20
	// The ring is llcMultiple times the last-level cache, so that most
	// of a walk misses it, within [minProbeBytes, maxProbeBytes].
	llcMultiple   = 2
	minProbeBytes = 16 << 20
	maxProbeBytes = 256 << 20
	// probeLoads is the loads one sample times: ~0.1–1 ms of CPU.
	probeLoads = 2000
	// probeSamples is how many samples one MemoryProbe.Measure takes; the
	// median of them is its figure.
	probeSamples = 5
)

// MemoryProbe walks a random cycle through the cache lines of a ring of
// memory mapped outside the Go heap (so it changes neither the garbage
// collector's pace nor the allocations a run counts). A walk goes on
// where the last one stopped, so each load is a line no recent load
// touched and, on 4 KiB pages, a TLB miss whose page-table walk reads
// memory too: its figure is larger than a DRAM access alone, and moves
// with the same contention.
//
// The ring is resident only while Measure walks it: Measure maps it,
// lays the cycle into it from the probe's links (one word per line,
// 1/16 of the ring, kept for the probe's life), walks and unmaps it. A
// ring kept between walks would sit in the process's peak memory for the
// whole run (64 MiB beside a live heap of tens of MiB) for the sake of
// two walks of a few milliseconds each. Measure is safe for concurrent
// use; its calls are serialised.
type MemoryProbe struct {
	mu    sync.Mutex
	links []uint32 // links[i]: the line after line i on the cycle
	at    uint32   // the ring word the next walk starts from
}

var (
	sharedProbe     *MemoryProbe
	sharedProbeOnce sync.Once
)

// SharedMemoryProbe is the process's one probe, its cycle drawn on first
// use (tens of milliseconds, once) over a ring sized to this machine's
// last-level cache (probeSize); nil where its memory cannot be mapped.
func SharedMemoryProbe() *MemoryProbe {
	sharedProbeOnce.Do(func() { sharedProbe = newMemoryProbe(probeSize(lastLevelCache())) })
	return sharedProbe
}

// probeSize is the ring for a last-level cache of llc bytes (0: unknown).
func probeSize(llc int) int {
	if llc <= 0 {
		return probeBytes
	}
	return min(maxProbeBytes, max(minProbeBytes, llcMultiple*llc))
}

// lineWords is the uint32s in a 64-byte cache line: the ring links one
// word of each line, so every load of a walk is a line of its own.
const lineWords = 16

// newMemoryProbe draws one random cycle over the cache lines of a ring of
// size bytes (Sattolo's shuffle: every line on one cycle, so a walk never
// settles into a short loop that fits in a cache) into links mapped
// outside the heap; nil if they cannot be mapped.
func newMemoryProbe(size int) *MemoryProbe {
	links := mapRing(size / 4 / lineWords)
	if links == nil {
		return nil
	}
	for i := range links {
		links[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(1, 2)) // the same cycle every run
	for i := len(links) - 1; i > 0; i-- {
		j := r.IntN(i)
		links[i], links[j] = links[j], links[i]
	}
	return &MemoryProbe{links: links}
}

// ringWords is the uint32s of the ring the probe walks.
func (p *MemoryProbe) ringWords() int { return len(p.links) * lineWords }

// lay maps the ring and writes the cycle into it, line i's first word
// holding the word index of the line after it; nil if it cannot be
// mapped. The caller unmaps it (unmapRing).
func (p *MemoryProbe) lay() []uint32 {
	ring := mapRing(p.ringWords())
	if ring == nil {
		return nil
	}
	for i, next := range p.links {
		ring[i*lineWords] = next * lineWords
	}
	return ring
}

// Measure times probeSamples walks of probeLoads loads on one locked OS
// thread and returns the median nanoseconds of CPU per load; 0 when p is
// nil, the ring cannot be mapped or the thread's CPU time cannot be read.
// It first returns the Go heap's free pages to the operating system
// (debug.FreeOSMemory), so that the ring takes their place rather than
// adding to them: the probe after a run would otherwise raise the
// process's peak by the whole ring. Measure runs outside a cell's window;
// the collection this forces costs a few milliseconds there.
func (p *MemoryProbe) Measure() float64 {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	debug.FreeOSMemory()
	ring := p.lay()
	if ring == nil {
		return 0
	}
	defer unmapRing(ring)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ns [probeSamples]float64
	for i := range ns {
		t0, ok := threadCPU()
		if !ok {
			return 0
		}
		p.at = walk(ring, p.at, probeLoads)
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
