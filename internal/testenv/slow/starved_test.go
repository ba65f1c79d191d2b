package slow

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestParseSchedstat(t *testing.T) {
	cases := []struct {
		line        string
		ran, waited int64
		ok          bool
	}{
		{"1058070 8194209 17\n", 1058070, 8194209, true},
		{"5 6", 5, 6, true},
		{"5", 0, 0, false},
		{"x 6 1", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, c := range cases {
		ran, waited, ok := parseSchedstat(c.line)
		if ran != c.ran || waited != c.waited || ok != c.ok {
			t.Errorf("parseSchedstat(%q) = %d, %d, %v; want %d, %d, %v", c.line, ran, waited, ok, c.ran, c.waited, c.ok)
		}
	}
}

func TestSlowdown(t *testing.T) {
	cases := []struct {
		s    CPUShare
		want float64
	}{
		{CPUShare{}, 1},
		{CPUShare{Ran: time.Second}, 1},
		{CPUShare{Ran: time.Second, Waited: 3 * time.Second}, 4},
	}
	for _, c := range cases {
		if got := c.s.Slowdown(); got != c.want {
			t.Errorf("%+v: Slowdown %v, want %v", c.s, got, c.want)
		}
	}
}

// TestWatchCPU: CPU burnt while watching is counted as run time, and the
// wall time covers it.
func TestWatchCPU(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc")
	}
	w := WatchCPU()
	runtime.LockOSThread() // the burning thread stays one thread
	deadline := time.Now().Add(50 * time.Millisecond)
	n := 0
	for time.Now().Before(deadline) {
		n++
	}
	runtime.UnlockOSThread()
	s := w.Share()
	if s.Ran <= 0 || s.Wall < 50*time.Millisecond || s.Waited < 0 {
		t.Fatalf("%+v after burning 50 ms (%d loops)", s, n)
	}
	if !strings.Contains(s.String(), "waited") {
		t.Errorf("String %q", s)
	}
}
