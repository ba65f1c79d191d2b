package drivertest

import (
	"runtime/metrics"
	"syscall"
	"testing"
	"time"
)

// schedMetric's histogram counts goroutines made runnable and then run: the
// process's goroutine wake-ups, sampled. The runtime records one transition
// in gTrackingPeriod = 8 per goroutine (runtime/proc.go), so the count times
// 8 estimates them all.
const (
	schedMetric = "/sched/latencies:seconds"
	schedSample = 8
)

// benchCost is what a benchmark's ops cost the client process beyond
// ns/op, which the other processes on a shared machine move: CPU and
// goroutine wake-ups, both counted by the process itself.
type benchCost struct {
	cpu    time.Duration
	scheds uint64
}

func readBenchCost() benchCost {
	var c benchCost
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		c.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	s := []metrics.Sample{{Name: schedMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindFloat64Histogram {
		for _, n := range s[0].Value.Float64Histogram().Counts {
			c.scheds += n * schedSample
		}
	}
	return c
}

// report adds cpu-µs/op (the client's CPU per op: user + system, the
// loopback network stack included) and wakeups/op (goroutine wake-ups per
// op, estimated from the runtime's sample) since c.
func (c benchCost) report(b *testing.B) {
	if b.N == 0 {
		return
	}
	now := readBenchCost()
	n := float64(b.N)
	b.ReportMetric(float64(now.cpu-c.cpu)/1e3/n, "cpu-µs/op")
	b.ReportMetric(float64(now.scheds-c.scheds)/n, "wakeups/op")
}
