package procstat

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// threadCPU is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID).
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}

// mapRing maps n uint32s of anonymous memory outside the Go heap, its
// pages faulted in by the one call (MAP_POPULATE) rather than one fault
// per page as they are first written; nil if it cannot.
func mapRing(n int) []uint32 {
	b, err := unix.Mmap(-1, 0, n*4, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_POPULATE)
	if err != nil {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n)
}

// unmapRing returns a mapRing's memory to the operating system.
func unmapRing(ring []uint32) {
	_ = unix.Munmap(unsafe.Slice((*byte)(unsafe.Pointer(&ring[0])), len(ring)*4))
}

// cacheDir holds the first CPU's caches, one indexN directory each.
const cacheDir = "/sys/devices/system/cpu/cpu0/cache"

// lastLevelCache is the size in bytes of the first CPU's highest-level
// cache; 0 if sysfs does not say.
func lastLevelCache() int { return lastLevelCacheIn(cacheDir) }

func lastLevelCacheIn(dir string) int {
	idx, _ := filepath.Glob(filepath.Join(dir, "index*"))
	level, size := 0, 0
	for _, d := range idx {
		l, err1 := readCacheField(d, "level")
		s, err2 := os.ReadFile(filepath.Join(d, "size"))
		if err1 != nil || err2 != nil || l < level {
			continue
		}
		if n := parseCacheSize(strings.TrimSpace(string(s))); n > 0 && (l > level || n > size) {
			level, size = l, n
		}
	}
	return size
}

func readCacheField(dir, name string) (int, error) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// parseCacheSize reads sysfs's "32768K" (or "8M", or plain bytes); 0 if
// it cannot.
func parseCacheSize(s string) int {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0
	}
	return n * mult
}
