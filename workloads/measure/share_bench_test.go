package measure_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/measure"
)

// BenchmarkRefereeShare measures what the referee costs a cycle: the
// pipeline cell of each client (Redlock, 5 local masters, 64 workers,
// uncontended) measured with the referee and without it, alternately,
// b.N rounds of each; the client CPU per cycle of both and their
// difference are reported. The referee is the one part of the harness a
// run can leave out (the recorder's share is BenchmarkRecord's, in
// results/record); the rest of a cell's cost over the bare library's
// floor is the lock's own: the strategy, the Redlock core and the
// callers it wakes (BenchmarkHarnessShare in workloads/compare).
func BenchmarkRefereeShare(b *testing.B) {
	testenv.Servers(b)
	ctx := context.Background()
	masters, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 5, Persistence: "none"})
	if err != nil {
		b.Fatal(err)
	}
	defer masters.Close()
	for _, client := range []string{"goredis", "rueidis"} {
		b.Run(client, func(b *testing.B) {
			spec := backends.Spec{Backend: "redlock", Client: client, Mux: "pipeline", Workers: 64,
				Redlock: redlock.DefaultConfig(), Tuning: backends.DefaultTuning()}
			locker, err := backends.Open(ctx, spec, backends.Endpoints{Masters: masters.Endpoints()})
			if err != nil {
				b.Fatal(err)
			}
			defer locker.Close()
			cfg := measure.WithDefaults(workloads.Config{Workload: "uncontended", Workers: 64, Duration: time.Second, Warmup: 300 * time.Millisecond})
			off := measure.Hooks{Referee: func(workloads.Judge) workloads.Judge { return nil }}
			var with, without perCycle
			b.ResetTimer()
			for i := range b.N {
				for _, side := range []bool{i%2 == 0, i%2 != 0} { // each round's order alternates
					h, into := measure.Hooks{}, &with
					if !side {
						h, into = off, &without
					}
					var edges [2]procstat.CostSample // the window's start and end
					h.OnWindow = func(end bool) {
						if end {
							edges[1] = procstat.SampleCost(procstat.ServerCPU{})
						} else {
							edges[0] = procstat.SampleCost(procstat.ServerCPU{})
						}
					}
					m, err := measure.Measure(ctx, locker, cfg, h)
					if err != nil {
						b.Fatal(err)
					}
					into.add(procstat.CostBetween(edges[0], edges[1], m.Run.Counts.Cycles, procstat.ServerCPU{}), m.Run.Counts.Cycles)
				}
			}
			b.StopTimer()
			b.ReportMetric(with.us(), "with-referee-µs/cycle")
			b.ReportMetric(without.us(), "without-µs/cycle")
			b.ReportMetric(with.us()-without.us(), "referee-µs/cycle")
		})
	}
}

// perCycle sums the client CPU and cycles of several measured windows.
type perCycle struct {
	cpuUS  float64
	cycles int64
}

func (p *perCycle) add(c *schema.Cost, cycles int64) {
	if c != nil {
		p.cpuUS += c.ClientCPUUSPerCycle * float64(cycles)
		p.cycles += cycles
	}
}

func (p perCycle) us() float64 {
	if p.cycles == 0 {
		return 0
	}
	return p.cpuUS / float64(p.cycles)
}
