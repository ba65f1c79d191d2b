package backends_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

var servers *compose.Redis

// The conformance suites mostly sleep through TTLs and the Sentinel: more
// of their tests run at once than the CPUs.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{Waiting: 4, Setup: testenv.Start(
		func(ctx context.Context) (*compose.Redis, error) {
			return compose.StartRedis(ctx, compose.RedisOptions{Masters: 5})
		},
		func(r *compose.Redis) { servers = r })})
}

// onMasters is the 5 masters as Open's endpoints.
func onMasters() backends.Endpoints { return backends.Endpoints{Masters: servers.Endpoints()} }

// redlockCells is every client × strategy cell of the redlock backend on
// the 5 masters, named client/mux, with 64 workers and default Redlock
// settings.
func redlockCells() (names []string, specs []backends.Spec) {
	b, _ := backends.Lookup("redlock")
	for _, client := range b.Clients {
		for _, mux := range b.Muxes {
			names = append(names, client+"/"+mux)
			specs = append(specs, backends.Spec{Backend: "redlock", Client: client, Mux: mux, Workers: 64,
				Redlock: redlock.DefaultConfig(), Tuning: backends.DefaultTuning()})
		}
	}
	return names, specs
}

// TestRedlockConformance runs the suite on every client × strategy cell of
// the redlock backend, against 5 real masters.
func TestRedlockConformance(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // shares TestMain's masters on keys of its own: overlaps the other conformance tests
	names, specs := redlockCells()
	for i, spec := range specs {
		t.Run(names[i], func(t *testing.T) {
			t.Parallel() // a cell waits mostly on expiries: cells overlap
			probe, err := backends.Open(context.Background(), spec, onMasters())
			if err != nil {
				t.Skipf("cell not available: %v", err)
			}
			_ = probe.Close()
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				s := spec
				s.Redlock.TTL = ttl
				s.Redlock.NodeTimeout = slow.NodeTimeout(s.Redlock.NodeTimeout, ttl)
				l, err := backends.Open(context.Background(), s, onMasters())
				if err != nil {
					t.Fatal(err)
				}
				return l
			}, drivertest.Options{})
		})
	}
}
