package goredis_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	adapter "github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/multiplex"
)

// BenchmarkCycle is one uncontended Redlock cycle (acquire + release) on the
// test's 3 masters per mux, at 1 and 256 concurrent lockers: the adapter and
// strategy cost without the harness's recording.
func BenchmarkCycle(b *testing.B) {
	for _, mux := range []string{"sequential", "fanout", "pipeline", "auto"} {
		for _, workers := range []int{1, 256} {
			b.Run(fmt.Sprintf("%s/workers=%d", mux, workers), func(b *testing.B) {
				nodes, err := adapter.Dial(masters, adapter.Options{PoolSize: workers, Auto: mux == "auto", NodeTimeout: time.Second})
				if err != nil {
					b.Fatal(err)
				}
				s, err := multiplex.New(mux, adapter.Nodes(nodes), multiplex.Options{})
				if err != nil {
					b.Fatal(err)
				}
				cfg := redlock.DefaultConfig()
				cfg.NodeTimeout = time.Second
				l, err := redlock.New(s, cfg, func() error { return adapter.CloseAll(nodes) })
				if err != nil {
					b.Fatal(err)
				}
				defer l.Close()
				var seq atomic.Int64
				b.SetParallelism(max(1, workers/2)) // GOMAXPROCS=2 on the target machine
				b.ReportAllocs()
				b.ResetTimer()
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
			})
		}
	}
}
