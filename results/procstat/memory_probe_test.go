package procstat

import (
	"runtime"
	"testing"
)

// Sattolo's shuffle links every cache line into one cycle: a walk of as
// many loads as lines visits each line once, at its first word, and comes
// back to where it began, so no walk settles into a short loop that a
// cache could hold.
func TestMemoryProbeRingIsOneCycle(t *testing.T) {
	p := newMemoryProbe(1 << 16)
	lines := len(p.ring) / lineWords
	seen := make([]bool, lines)
	at := uint32(0)
	for range lines {
		if at%lineWords != 0 {
			t.Fatalf("a link to word %d, inside a line: want each load at a line's start", at)
		}
		if seen[at/lineWords] {
			t.Fatalf("line %d visited twice: the ring has a cycle shorter than %d lines", at/lineWords, lines)
		}
		seen[at/lineWords] = true
		at = p.ring[at]
	}
	if at != 0 {
		t.Errorf("after %d loads the walk is at word %d, not back at 0", lines, at)
	}
}

// The probe's memory is its own mapping, not the Go heap: a run's
// garbage collector paces itself by the heap, and a 64 MiB live object
// there would make the harness collect less often than it does without
// the probe.
func TestMemoryProbeStaysOffTheHeap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the probe maps its own memory on Linux only")
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	p := newMemoryProbe(32 << 20)
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 1<<20 {
		t.Errorf("building a 32 MiB probe grew the heap by %d bytes", grew)
	}
	runtime.KeepAlive(p)
}

// The probe measures the memory system, not its loop: the same walk over
// a ring that fits in the first-level cache takes a fraction of the time
// per load that one over 64 MiB does (here ~2 ns against ~200–400 ns; a
// factor of 3 leaves room for any machine whose caches are far larger).
func TestMemoryProbeMeasuresMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is read on Linux only")
	}
	small, large := newMemoryProbe(8<<10), SharedMemoryProbe()
	s, l := small.Measure(), large.Measure()
	if s <= 0 || l <= 0 {
		t.Fatalf("probe figures %v (8 KiB) and %v (64 MiB): want both above 0", s, l)
	}
	if l < 3*s {
		t.Errorf("64 MiB walk %.1f ns/load, 8 KiB walk %.1f: want the large at least 3× the small", l, s)
	}
	var nilProbe *MemoryProbe
	if v := nilProbe.Measure(); v != 0 {
		t.Errorf("a nil probe measured %v, want 0", v)
	}
}
