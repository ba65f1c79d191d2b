package stats_test

import (
	"fmt"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// A cell measured in three rounds (compare --repeat 3) is one row: the
// median round's figures with the median cycles/s, and its spread.
func ExampleMedianRun() {
	var runs []schema.Run
	for i, cps := range []float64{4100, 3900, 4600} {
		runs = append(runs, schema.Run{Name: "redlock/rueidis/fanout/uncontended", Repeat: i + 1,
			Throughput: schema.Throughput{CyclesPerS: cps}, Counts: schema.Counts{Cycles: int64(cps) * 3}})
	}
	row := stats.MedianRun(runs)
	fmt.Printf("%.0f cycles/s ±%.1f%%, %d cycles in %d rounds\n", row.Throughput.CyclesPerS, 100*stats.Spread(runs), row.Counts.Cycles, len(runs))
	// Output: 4100 cycles/s ±12.2%, 37800 cycles in 3 rounds
}
