package delayline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRelayThreadAhead: the relay's thread runs at wireNice (as root,
// who may raise a priority), ahead of the masters and the client that
// share the machine's cores; the test's other threads keep theirs.
func TestRelayThreadAhead(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("raising a priority needs root; elsewhere the line keeps the default")
	}
	before := nices(t)
	serve(t, Pair{Listen: "127.0.0.1:0", Target: echo(t)})
	deadline := time.Now().Add(5 * time.Second)
	for {
		after := nices(t)
		if after[wireNice] == before[wireNice]+1 {
			if after[0] < 1 {
				t.Fatalf("no thread left at the default priority: %v", after)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("threads by nice value: %v before the line, %v with it: want one more at %d", before, after, wireNice)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// nices counts this process's threads by nice value (/proc/self/task/*/stat,
// field 19).
func nices(t *testing.T) map[int]int {
	t.Helper()
	paths, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]int{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // the thread ended
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		n, err := strconv.Atoi(f[16]) // fields from 3 on: nice is the 19th
		if err != nil {
			t.Fatalf("%s: %q", p, s)
		}
		out[n]++
	}
	return out
}
