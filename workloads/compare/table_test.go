package compare

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/output"
)

// TestTable: the writer prints the "vs seq" column and the compare's
// summary under the table.
func TestTable(t *testing.T) {
	ratio := 2.5
	runs := []results.Run{{Name: "redlock/goredis/fanout/uncontended", Masters: 5, VsSequential: &ratio,
		Counts: results.Counts{Cycles: 10, Attempts: 10, Acquired: 10}}}
	var b strings.Builder
	w := output.Writer{Stdout: &b}
	Table(&w, runs, map[int]float64{5: 1000})
	if err := w.Write(&results.Summary{Runs: runs}, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vs seq", "2.5", "ceiling (redis-benchmark -P 16, 5 masters): 1000 cycles/s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
}
