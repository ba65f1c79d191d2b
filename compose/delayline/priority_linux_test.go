package delayline

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestRelayThreadAhead: the relay's thread runs at wireNice (as root,
// who may raise a priority), ahead of the masters and the client that
// share the machine's cores, and the thread that started it keeps its own.
func TestRelayThreadAhead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("raising a priority needs root; elsewhere the line keeps the default")
	}
	l := serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t)})
	var tid int
	for deadline := time.Now().Add(5 * time.Second); tid == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the loop did not start within 5 s")
		}
		l.mu.Lock()
		tid = l.tid
		l.mu.Unlock()
	}
	if got := nice(t, tid); got != wireNice {
		t.Fatalf("relay thread %d at nice %d, want %d", tid, got, wireNice)
	}
	if got := nice(t, unix.Gettid()); got == wireNice {
		t.Fatalf("the test's own thread at nice %d too", got)
	}
}

// nice is thread tid's nice value (/proc/self/task/TID/stat, field 19).
func nice(t *testing.T, tid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	n, err := strconv.Atoi(f[16]) // fields from the 3rd on: nice is the 19th
	if err != nil {
		t.Fatalf("thread %d: %q", tid, s)
	}
	return n
}
