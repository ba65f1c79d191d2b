package render

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// TestProgressLine: labelled per-second and total figures that add up to
// what was recorded, within 100 columns even for huge counts and latencies.
func TestProgressLine(t *testing.T) {
	reg := record.NewRegistry(false)
	rec := reg.NewRecorder()
	for range 3 {
		rec.Record(schema.OpCycle, schema.OK, 0, 0, int64(3*time.Second))
	}
	reg.Tick()
	for range 2 {
		rec.Record(schema.OpCycle, schema.OK, 0, 0, int64(900*time.Microsecond))
	}
	rec.Record(schema.OpAcquire, schema.Error, 0, 0, 1000)
	iv := reg.Tick()
	line := ProgressLine(12345*time.Second, iv, reg.Total())
	for _, want := range []string{"now:", "total: 5 cycles", "p99 900µs", "p99 3.00s", "failed ops 1"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
	if n := utf8.RuneCountInString(line); n > TableWidth {
		t.Errorf("%d columns: %q", n, line)
	}
}
