package render

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

func TestGoBenchLine(t *testing.T) {
	r := schema.Run{Name: "redlock/rueidis/auto/uncontended", Throughput: schema.Throughput{CyclesPerS: 125000},
		LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 9, P50: 2.5, P99: 9.75, P999: 20}, "acquire": {Count: 9, P99: 7}},
		Counts:    schema.Counts{Cycles: 1250000, Attempts: 1250000}, AllocsPerCycle: 3}
	got := goBenchLine(r, 2)
	want := "BenchmarkLock/redlock/rueidis/auto/uncontended-2\t1250000\t8000 ns/op\t2500 p50-ns\t9750 p99-ns\t20000 p99.9-ns\t7000 acquire-p99-ns\t125000 cycles/s\t1 attempts/op\t3 allocs/op\t0 errors\t0 violations\t0 stale-overlaps"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

// TestNoSamplesNeverZero: a run that completed no cycle is a comment line
// in gobench (benchstat skips it: no "0 ns/op" speed-up) and its
// latencies are empty CSV cells; a run with cycles but no acquire samples
// leaves the acquire metric out instead of writing 0.
func TestNoSamplesNeverZero(t *testing.T) {
	none := schema.Run{Name: "redlock/goredis/auto/contended", Counts: schema.Counts{Attempts: 40}, LatencyUS: map[string]schema.Percentiles{"cycle": {}, "acquire": {}}}
	if got := goBenchLine(none, 2); !strings.HasPrefix(got, "# BenchmarkLock/") || strings.Contains(got, "ns/op") {
		t.Errorf("no cycle: %q", got)
	}
	some := schema.Run{Name: "x", Throughput: schema.Throughput{CyclesPerS: 10}, Counts: schema.Counts{Cycles: 10, Attempts: 10},
		LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 10, P50: 1, P99: 2, P999: 3}}}
	if got := goBenchLine(some, 0); strings.Contains(got, "acquire-p99-ns") || !strings.Contains(got, "p99-ns") {
		t.Errorf("no acquire samples: %q", got)
	}
	var b strings.Builder
	if err := WriteCSV(&b, []schema.Run{none}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range rows[0] {
		if strings.HasSuffix(h, "_us") && strings.Contains(h, "_p") && rows[1][i] != "" {
			t.Errorf("%s = %q for a run without samples, want an empty cell", h, rows[1][i])
		}
	}
}
