package results

import "testing"

func TestGoBenchLine(t *testing.T) {
	r := Run{Name: "redlock/rueidis/auto/uncontended", Throughput: Throughput{CyclesPerS: 125000},
		LatencyUS: map[string]Percentiles{"cycle": {P50: 2.5, P99: 9.75, P999: 20}, "acquire": {P99: 7}},
		Counts:    Counts{Cycles: 1250000, Attempts: 1250000}, AllocsPerCycle: 3}
	got := GoBenchLine(r, 2)
	want := "BenchmarkLock/redlock/rueidis/auto/uncontended-2\t1250000\t8000 ns/op\t2500 p50-ns\t9750 p99-ns\t20000 p99.9-ns\t7000 acquire-p99-ns\t125000 cycles/s\t1 attempts/op\t3 allocs/op\t0 errors\t0 violations\t0 stale-overlaps"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}
