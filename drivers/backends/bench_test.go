package backends_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/drivertest"
	"github.com/lockbench/lockbench/drivers/redlock"
)

// BenchmarkCycle is one uncontended acquire+release per op for every redlock
// cell on the 5 real masters of TestMain, opened through the backends
// registry exactly as `lockbench run` does, from 16×GOMAXPROCS goroutines.
// allocs/op is the whole cycle's allocations: driver, strategy and client.
func BenchmarkCycle(b *testing.B) {
	bk, _ := backends.Lookup("redlock")
	for _, client := range bk.Clients {
		for _, mux := range bk.Muxes {
			b.Run(client+"/"+mux, func(b *testing.B) {
				spec := backends.Spec{Backend: "redlock", Client: client, Mux: mux, Workers: 64, RedisAddrs: masters(),
					Redlock: redlock.DefaultConfig()}
				spec.Multiplex.Batch = 64
				l, err := backends.Open(context.Background(), spec)
				if err != nil {
					b.Skipf("cell not available: %v", err)
				}
				defer l.Close()
				drivertest.BenchLocker(b, l, 16)
			})
		}
	}
}
