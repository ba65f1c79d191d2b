package compare

import (
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// TestRankings: each cell's rank at every added round trip, cells in the
// order of the first; a swap in throughput is a swap in rank; other
// backends are not ranked; one round trip ranks nothing.
func TestRankings(t *testing.T) {
	run := func(mux, wl string, rttUS, cps float64) schema.Run {
		return schema.Run{Name: "redlock/rueidis/" + mux + "/" + wl, Backend: "redlock", Client: "rueidis", Mux: mux,
			Workload: wl, AddedRTTUS: rttUS, Throughput: schema.Throughput{CyclesPerS: cps}}
	}
	def := run("auto", "uncontended", 0, 100)
	def.Name = "redlock/rueidis/auto/defaults/uncontended"
	defFar := def
	defFar.AddedRTTUS, defFar.Throughput.CyclesPerS = 1000, 10
	runs := []schema.Run{
		run("sequential", "uncontended", 0, 300), run("fanout", "uncontended", 0, 200),
		run("sequential", "uncontended", 1000, 50), run("fanout", "uncontended", 1000, 150),
		def, defFar,
		run("fanout", "contended", 0, 20), run("fanout", "contended", 1000, 5),
		{Name: "etcd/rpc/uncontended", Backend: "etcd", Workload: "uncontended"},
	}
	rtts := []time.Duration{0, time.Millisecond}
	got := rankingsOf(runs, rtts)
	want := []string{
		"uncontended rueidis/sequential [1 2] [300 50]",
		"uncontended rueidis/fanout [2 1] [200 150]",
		"uncontended rueidis/auto/defaults [3 3] [100 10]",
		"contended rueidis/fanout [1 1] [20 5]",
	}
	var lines []string
	for _, rk := range got {
		for _, c := range rk.Cells {
			lines = append(lines, fmt.Sprintf("%s %s %v %v", rk.Workload, c.Cell, c.Rank, c.CyclesPerS))
		}
	}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Fatalf("rankings\n%q\nwant\n%q", lines, want)
	}
	if r := rankingsOf(runs, rtts[:1]); r != nil {
		t.Fatalf("one round trip ranked: %+v", r)
	}
}
