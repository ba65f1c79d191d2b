package backends_test

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redlock"
)

// BenchmarkCycle is one uncontended acquire+release per op for every redlock
// cell on the 5 real masters of TestMain, run from GOMAXPROCS×p goroutines.
// allocs/op is the whole cycle's allocations: driver, strategy and client.
func BenchmarkCycle(b *testing.B) {
	bk, _ := backends.Lookup("redlock")
	for _, client := range bk.Clients {
		for _, mux := range bk.Muxes {
			b.Run(client+"/"+mux, func(b *testing.B) {
				spec := backends.Spec{Backend: "redlock", Client: client, Mux: mux, Workers: 64, RedisAddrs: masters,
					Redlock: redlock.DefaultConfig()}
				spec.Multiplex.Batch = 64
				l, err := backends.Open(context.Background(), spec)
				if err != nil {
					b.Skipf("cell not available: %v", err)
				}
				defer l.Close()
				ctx := context.Background()
				b.ReportAllocs()
				b.SetParallelism(16)
				var id atomic.Int64
				b.RunParallel(func(pb *testing.PB) {
					n := 0
					prefix := "bench:" + client + mux + ":" + strconv.FormatInt(id.Add(1), 10) + ":"
					for pb.Next() {
						n++
						lease, _, err := l.Lock(ctx, prefix+strconv.Itoa(n))
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
