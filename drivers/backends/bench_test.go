package backends_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/internal/testenv"
)

// BenchmarkCycle is one uncontended acquire+release per op for every redlock
// cell on the 5 real masters of TestMain, opened through the backends
// registry exactly as `lockbench run` does, from 16×GOMAXPROCS goroutines.
// allocs/op is the whole cycle's allocations: driver, strategy and client.
func BenchmarkCycle(b *testing.B) {
	testenv.Servers(b)
	names, specs := redlockCells()
	for i, spec := range specs {
		b.Run(names[i], func(b *testing.B) {
			spec.Multiplex.Batch = 64
			l, err := backends.Open(context.Background(), spec, onMasters())
			if err != nil {
				b.Skipf("cell not available: %v", err)
			}
			defer l.Close()
			drivertest.BenchLocker(b, l, 16)
		})
	}
}
