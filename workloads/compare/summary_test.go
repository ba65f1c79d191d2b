package compare

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lockbench/lockbench/results/schema"
)

// TestCompareSummaryFits100Columns: the per-cycle cost list under the
// compare table, with the ceiling column and the longest cell names
// make run prints, fits a 100-column terminal.
func TestCompareSummaryFits100Columns(t *testing.T) {
	cost := &schema.Cost{ClientCPUUSPerCycle: 16723.9, ServerCPUUSPerCycle: 12978.7, ServerCPUSource: "proc", ClientWritesPerCycle: 583.77}
	ceiling := &schema.Cost{ClientCPUUSPerCycle: 999.9, ServerCPUUSPerCycle: 999.9, ServerCPUSource: "proc"}
	runs := []schema.Run{
		{Name: "redlock/rueidis/sequential/uncontended", Masters: 5, Throughput: schema.Throughput{CyclesPerS: 123456},
			AllocsPerCycle: 5249.4, Cost: cost, VsSequential: ptr(15.57), OfCeiling: ptr(0.525), CeilingCost: ceiling},
		{Name: "redlock/goredis/auto/contended", Masters: 5, AllocsPerCycle: 4.2},
	}
	var b bytes.Buffer
	writeSummary(&b, runs, map[int]float64{5: 1234567})
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) < 3 {
		t.Fatalf("want ceiling, header and rows, got:\n%s", b.String())
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("%d columns: %q", n, l)
		}
	}
}

func ptr(v float64) *float64 { return &v }

// TestPrintRanking: a title and header per workload, then each cell's
// rank and cycles/s at every round trip.
func TestPrintRanking(t *testing.T) {
	var b bytes.Buffer
	writeRankings(&b, []ranking{{Workload: "uncontended", RTTs: []time.Duration{0, time.Millisecond},
		Cells: []rankedCell{{Cell: "rueidis/sequential", Rank: []int{1, 2}, CyclesPerS: []float64{300, 50}},
			{Cell: "rueidis/fanout", Rank: []int{2, 1}, CyclesPerS: []float64{200, 150}}}}})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[0], "(uncontended)") || !strings.Contains(lines[1], "rtt 1ms") {
		t.Fatalf("want a title, a header and 2 cells:\n%s", b.String())
	}
	for i, want := range []string{"rueidis/sequential 1. 300 2. 50", "rueidis/fanout 2. 200 1. 150"} {
		if f := strings.Join(strings.Fields(lines[2+i]), " "); f != want {
			t.Errorf("row %d: %q, want %q", i, f, want)
		}
	}
}
