package procstat

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// Sattolo's shuffle links every cache line into one cycle: a walk of as
// many loads as lines visits each line once, at its first word, and comes
// back to where it began, so no walk settles into a short loop that a
// cache could hold.
func TestMemoryProbeRingIsOneCycle(t *testing.T) {
	p := newMemoryProbe(1 << 16)
	ring := p.lay()
	defer unmapRing(ring)
	lines := len(ring) / lineWords
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
		at = ring[at]
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
// per load that one over twice the last-level cache does (here ~2 ns
// against ~150–400 ns; a factor of 3 leaves room for any machine).
func TestMemoryProbeMeasuresMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is read on Linux only")
	}
	small, large := newMemoryProbe(8<<10), SharedMemoryProbe()
	s, l := small.Measure(), large.Measure()
	if s <= 0 || l <= 0 {
		t.Fatalf("probe figures %v (8 KiB) and %v (the shared probe): want both above 0", s, l)
	}
	if l < 3*s {
		t.Errorf("shared probe walk %.1f ns/load, 8 KiB walk %.1f: want the large at least 3× the small", l, s)
	}
	var nilProbe *MemoryProbe
	if v := nilProbe.Measure(); v != 0 {
		t.Errorf("a nil probe measured %v, want 0", v)
	}
}

// The ring is resident only while Measure walks it: the process's peak
// memory over a run holds the run's heap, not the probe's ring beside it.
func TestMemoryProbeRingUnmappedAfterWalk(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("resident memory is read from /proc on Linux only")
	}
	const size = 32 << 20
	p := newMemoryProbe(size)
	debug.FreeOSMemory()
	before := residentBytes(t)
	if v := p.Measure(); v <= 0 {
		t.Fatalf("probe figure %v, want above 0", v)
	}
	after := residentBytes(t)
	if grew := after - before; grew > size/4 {
		t.Errorf("resident memory grew by %d MiB over a walk of a %d MiB ring: want the ring unmapped after it", grew>>20, size>>20)
	}
	// The walk goes on where the last one stopped, over the same cycle
	// laid again.
	at := p.at
	p.Measure()
	ring := p.lay()
	defer unmapRing(ring)
	if want := walk(ring, at, probeSamples*probeLoads); p.at != want {
		t.Errorf("second walk ended at word %d, want %d: the relaid ring is not the same cycle", p.at, want)
	}
}

// residentBytes is this process's resident set (VmRSS).
func residentBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// The ring is twice the last-level cache sysfs names (the highest level,
// not the first cache listed), within bounds; probeBytes where it names
// none.
func TestProbeSizedToLastLevelCache(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("caches are read from sysfs on Linux only")
	}
	dir := t.TempDir()
	for i, c := range []struct{ level, size string }{{"1", "48K"}, {"1", "32K"}, {"2", "2048K"}, {"3", "32768K"}} {
		d := filepath.Join(dir, "index"+strconv.Itoa(i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, "level"), []byte(c.level+"\n"), 0o644)
		os.WriteFile(filepath.Join(d, "size"), []byte(c.size+"\n"), 0o644)
	}
	if got := lastLevelCacheIn(dir); got != 32<<20 {
		t.Errorf("last-level cache %d bytes, want 32 MiB", got)
	}
	if got := lastLevelCacheIn(t.TempDir()); got != 0 {
		t.Errorf("no caches listed: %d bytes, want 0", got)
	}
	for _, c := range []struct{ llc, want int }{{0, probeBytes}, {32 << 20, 64 << 20}, {1 << 20, minProbeBytes}, {1 << 30, maxProbeBytes}} {
		if got := probeSize(c.llc); got != c.want {
			t.Errorf("probeSize(%d MiB) = %d MiB, want %d MiB", c.llc>>20, got>>20, c.want>>20)
		}
	}
}
