package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
)

// TestPrintRanking: each cell's rank at every added round trip, cells in
// the order of the first; a swap in throughput is a swap in rank.
func TestPrintRanking(t *testing.T) {
	run := func(mux string, rttUS, cps float64) results.Run {
		return results.Run{Name: "redlock/rueidis/" + mux + "/uncontended", Backend: "redlock", Client: "rueidis", Mux: mux,
			Workload: "uncontended", AddedRTTUS: rttUS, Throughput: results.Throughput{CyclesPerS: cps}}
	}
	runs := []results.Run{
		run("sequential", 0, 300), run("fanout", 0, 200),
		run("sequential", 1000, 50), run("fanout", 1000, 150),
	}
	var b bytes.Buffer
	printRanking(&b, runs, []time.Duration{0, time.Millisecond})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a title, a header and 2 cells:\n%s", b.String())
	}
	for i, want := range [][]string{{"rueidis/sequential", "1. 300", "2. 50"}, {"rueidis/fanout", "2. 200", "1. 150"}} {
		f := strings.Join(strings.Fields(lines[2+i]), " ")
		if f != strings.Join(want, " ") {
			t.Fatalf("row %d: %q, want %q\n%s", i, f, strings.Join(want, " "), b.String())
		}
	}
	b.Reset()
	printRanking(&b, runs, []time.Duration{0})
	if b.Len() != 0 {
		t.Fatalf("one round trip, no ranking: %q", b.String())
	}
}
