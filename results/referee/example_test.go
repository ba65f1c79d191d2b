package referee_test

import (
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/results/schema"
)

// Two workers are granted one key for overlapping windows: a violation no
// single client could see. A third attempt, refused as busy while nobody
// held the key, is reclassified as split brain.
func Example() {
	clock := record.NewClock()
	ref := referee.New(3, clock, 0)
	ms := int64(time.Millisecond)
	ref.Attempting(0, "k", 0)
	ref.Granted(0, "k", 0, 1*ms, 100*ms, 0) // worker 0 holds k until 100 ms
	ref.Attempting(1, "k", 10*ms)
	ref.Granted(1, "k", 10*ms, 11*ms, 110*ms, 0) // worker 1 too, from 11 ms
	ref.Released(0, "k", 50*ms)
	ref.Unlocked(0, "k", 51*ms)
	ref.Released(1, "k", 60*ms)
	ref.Unlocked(1, "k", 61*ms)
	ref.Attempting(2, "other", 70*ms)
	fmt.Println(ref.Failed(2, "other", 70*ms, 71*ms, schema.Busy))
	rep := ref.Report()
	fmt.Println("violations:", rep.Violations, "busy→split:", rep.BusyToSplit)
	// Output:
	// split_brain
	// violations: 1 busy→split: 1
}
