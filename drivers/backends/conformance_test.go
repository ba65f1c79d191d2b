package backends_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/drivertest"
	"github.com/lockbench/lockbench/drivers/redlock"
)

var masters []string

func TestMain(m *testing.M) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 5})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	masters = r.Addrs()
	code := m.Run()
	_ = r.Close()
	os.Exit(code)
}

// TestRedlockConformance runs the suite on every client × strategy cell of
// the redlock backend, against 5 real masters.
func TestRedlockConformance(t *testing.T) {
	b, _ := backends.Lookup("redlock")
	for _, client := range b.Clients {
		for _, mux := range b.Muxes {
			t.Run(client+"/"+mux, func(t *testing.T) {
				spec := backends.Spec{Backend: "redlock", Client: client, Mux: mux, Workers: 64, RedisAddrs: masters,
					Redlock: redlock.DefaultConfig()}
				probe, err := backends.Open(context.Background(), spec)
				if err != nil {
					t.Skipf("cell not available: %v", err)
				}
				_ = probe.Close()
				drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
					s := spec
					s.Redlock.TTL = ttl
					l, err := backends.Open(context.Background(), s)
					if err != nil {
						t.Fatal(err)
					}
					return l
				}, drivertest.Options{})
			})
		}
	}
}
