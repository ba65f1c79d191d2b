package drivertest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
)

// MainWithMasters is a whole TestMain: it starts n local redis-server
// masters, sets *servers, runs the package's tests and benchmarks, stops the
// masters and exits with the tests' status. A failed start exits 1.
func MainWithMasters(m *testing.M, n int, servers **compose.Redis) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: n})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*servers = r
	code := m.Run()
	_ = r.Close()
	os.Exit(code)
}
