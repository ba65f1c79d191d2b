package drivertest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
)

// BenchCycle is one uncontended Redlock cycle (acquire + release) on addrs
// per mux, at 1 and 256 concurrent lockers: the adapter and strategy cost
// without the harness's recording.
func BenchCycle[N multiplex.BatchNode](b *testing.B, addrs []redisconn.Endpoint, d Dialer[N]) {
	for _, mux := range Muxes {
		for _, workers := range []int{1, 256} {
			b.Run(fmt.Sprintf("%s/workers=%d", mux, workers), func(b *testing.B) {
				cfg := redlock.DefaultConfig()
				cfg.NodeTimeout = time.Second
				l := d.locker(b, addrs, mux, NodeConfig{PoolSize: workers, Auto: mux == "auto", NodeTimeout: time.Second}, cfg)
				defer l.Close()
				BenchLocker(b, l, max(1, workers/2)) // GOMAXPROCS=2 on the target machine
			})
		}
	}
}

// BenchLocker times one uncontended acquire + release per op on l from
// GOMAXPROCS×parallelism goroutines, each cycle on a fresh key. Beside
// ns/op it reports the client's CPU and goroutine wake-ups per op
// (benchcost.go): on a machine shared with the masters and other work those
// move far less than ns/op.
func BenchLocker(b *testing.B, l drivers.Locker, parallelism int) {
	var seq atomic.Int64
	b.SetParallelism(parallelism)
	b.ReportAllocs()
	b.ResetTimer()
	cost := readBenchCost()
	defer cost.report(b)
	b.RunParallel(func(pb *testing.PB) {
		ctx := context.Background()
		for pb.Next() {
			lease, _, err := l.Lock(ctx, fmt.Sprint("bench:", seq.Add(1)))
			if err != nil {
				b.Error(err)
				return
			}
			if err := lease.Unlock(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
