package compare_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/workloads/compare"
	"github.com/lockbench/lockbench/workloads/lab"
)

// BenchmarkHarnessShare: a pipeline cell's client CPU per cycle beside its
// client library's alone (the floor: the same commands, nothing of
// lockbench's), measured in one compare --ceiling on 5 local masters at
// 64 workers. The difference is what a cell adds to the library: the
// lock's own work (the Redlock core, the strategy, the callers it wakes)
// and lockbench's (referee, recorder; the referee's part alone is
// BenchmarkRefereeShare in workloads/measure):
//
//	go test -run '^$' -bench HarnessShare -benchtime 3x ./workloads/compare/
func BenchmarkHarnessShare(b *testing.B) {
	testenv.Servers(b)
	for _, client := range []string{"goredis", "rueidis"} {
		b.Run(client, func(b *testing.B) {
			base := lab.DefaultConfig()
			base.Workload.Workers, base.Workload.Duration, base.Workload.Warmup = 64, time.Second, 300*time.Millisecond
			cfg := compare.Config{Base: base, Clients: []string{client}, Muxes: []string{"pipeline"},
				Workloads: []string{"uncontended"}, Masters: []int{5}, Ceiling: true, Repeat: b.N}
			b.ResetTimer()
			res, err := compare.Run(context.Background(), cfg, compare.Observers{})
			b.StopTimer()
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Gaps) != 1 || res.Gaps[0].FloorCost == nil || res.Gaps[0].CellCost == nil {
				b.Fatalf("gaps %+v: want the client's floor and cell with their costs", res.Gaps)
			}
			g := res.Gaps[0]
			b.ReportMetric(g.FloorCost.ClientCPUUSPerCycle, "floor-µs/cycle")
			b.ReportMetric(g.CellCost.ClientCPUUSPerCycle, "cell-µs/cycle")
			b.ReportMetric(g.CellCost.ClientCPUUSPerCycle-g.FloorCost.ClientCPUUSPerCycle, "cell-over-floor-µs/cycle")
			b.ReportMetric(g.CellOfFloor.Median, "cell/floor")
		})
	}
}
