package compare

import (
	"io"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestCompareJudgesCellsOnTheirRounds: a cell whose one round mostly
// failed among healthy rounds is not a failed compare; a cell that failed
// in every round is.
func TestCompareJudgesCellsOnTheirRounds(t *testing.T) {
	round := func(rep int, attempts, acquired, errs int64) schema.Run {
		return schema.Run{Name: "redlock/goredis/pipeline/uncontended", Backend: "redlock", Repeat: rep, DurationS: 1,
			Counts:     schema.Counts{Attempts: attempts, Acquired: acquired, Errors: errs, Cycles: acquired},
			Throughput: schema.Throughput{CyclesPerS: float64(acquired)}}
	}
	cc := NewCommand()
	cc.Base.SetIO(io.Discard, io.Discard)
	for _, tc := range []struct {
		name   string
		rounds []schema.Run
		fail   bool
	}{
		{"one bad round of three", []schema.Run{round(1, 100, 10, 90), round(2, 1000, 1000, 0), round(3, 1000, 1000, 0)}, false},
		{"every round bad", []schema.Run{round(1, 100, 10, 90), round(2, 100, 5, 95), round(3, 100, 8, 92)}, true},
	} {
		err := cc.CheckFailures(tc.rounds)
		if (err != nil) != tc.fail {
			t.Errorf("%s: CheckFailures = %v, want failure %v", tc.name, err, tc.fail)
		}
	}
}
