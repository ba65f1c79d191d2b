package goredis_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/compose"
	adapter "github.com/lockbench/lockbench/drivers/goredis"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/testenv"
)

var servers *compose.Redis

func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{Setup: testenv.Start(
		func(ctx context.Context) (*compose.Redis, error) {
			return compose.StartRedis(ctx, compose.RedisOptions{Masters: 3})
		},
		func(r *compose.Redis) { servers = r })})
}

// dialer maps the node suite's client modes onto go-redis.
var dialer = drivertest.Dialer[*adapter.Node]{
	Dial: func(addrs []redisconn.Endpoint, c drivertest.NodeConfig) ([]*adapter.Node, error) {
		return adapter.Dial(addrs, adapter.Options{PoolSize: c.PoolSize, Auto: c.Auto, NodeTimeout: c.NodeTimeout})
	},
	CloseAll: adapter.CloseAll,
}

// TestNode runs the adapter suite (drivers/internal/drivertest.RunNode) on 3 real masters.
func TestNode(t *testing.T) { drivertest.RunNode(t, servers, dialer) }

// BenchmarkCycle: one uncontended acquire + release per op, per mux.
func BenchmarkCycle(b *testing.B) { drivertest.BenchCycle(b, servers.Endpoints(), dialer) }
