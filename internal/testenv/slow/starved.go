package slow

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Starved is the slowdown beyond which a test may call a liveness
// judgement (a budget ran out, a window saw nothing) inconclusive: the
// suite is meant to pass at a load average of twice the CPUs (a slowdown
// of about 2); at twice that slowdown its threads wait for a CPU three
// times as long as they run.
const Starved = 4.0

// CPUShare is how long the threads of this process ran and how long they
// waited, runnable, for a CPU (the kernel's run-queue time,
// /proc/self/task/*/schedstat) over a span.
type CPUShare struct {
	Wall, Ran, Waited time.Duration
}

// Slowdown is how many times longer the process's work took than it would
// have with a CPU always free: 1 + waited ÷ ran (1 where nothing is known).
func (s CPUShare) Slowdown() float64 {
	if s.Ran <= 0 {
		return 1
	}
	return 1 + float64(s.Waited)/float64(s.Ran)
}

// String says what was measured, for a skip message.
func (s CPUShare) String() string {
	return fmt.Sprintf("in %v this process's threads ran %v and waited %v for a CPU (%.1f× slower than with a CPU free)",
		s.Wall.Round(time.Millisecond), s.Ran.Round(time.Millisecond), s.Waited.Round(time.Millisecond), s.Slowdown())
}

// CPUWatch measures a CPUShare from its start.
type CPUWatch struct {
	start   time.Time
	threads map[string][2]int64 // tid → ran, waited (ns)
}

// WatchCPU starts measuring this process's CPU share. Where the kernel does
// not say (no /proc), Share reports nothing waited.
func WatchCPU() *CPUWatch {
	return &CPUWatch{start: time.Now(), threads: threadTimes("/proc/self/task")}
}

// Share is the CPU share since WatchCPU. Threads that ended meanwhile are
// not counted, so the wait is never overstated.
func (w *CPUWatch) Share() CPUShare {
	s := CPUShare{Wall: time.Since(w.start)}
	for tid, now := range threadTimes("/proc/self/task") {
		was := w.threads[tid]
		s.Ran += time.Duration(now[0] - was[0])
		s.Waited += time.Duration(now[1] - was[1])
	}
	return s
}

// threadTimes reads each thread's run and run-queue times under dir.
func threadTimes(dir string) map[string][2]int64 {
	out := map[string][2]int64{}
	tids, _ := os.ReadDir(dir)
	for _, tid := range tids {
		b, err := os.ReadFile(filepath.Join(dir, tid.Name(), "schedstat"))
		if err != nil {
			continue
		}
		if ran, waited, ok := parseSchedstat(string(b)); ok {
			out[tid.Name()] = [2]int64{ran, waited}
		}
	}
	return out
}

// parseSchedstat reads a schedstat line: ns on a CPU, ns waiting on a run
// queue, timeslices.
func parseSchedstat(line string) (ran, waited int64, ok bool) {
	f := strings.Fields(line)
	if len(f) < 2 {
		return 0, 0, false
	}
	ran, err1 := strconv.ParseInt(f[0], 10, 64)
	waited, err2 := strconv.ParseInt(f[1], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return ran, waited, true
}
