package compare

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/procstat"
)

// TestCeilingLeavesNoKeys: the ceiling's hundreds of thousands of SETs
// leave no key behind on the masters, so no expiry work falls on the
// measurements after it.
func TestCeilingLeavesNoKeys(t *testing.T) {
	testenv.Servers(t)
	if _, err := exec.LookPath("redis-benchmark"); err != nil {
		t.Fatal("redis-benchmark not found: make deps")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 2, Persistence: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := measureCeiling(ctx, r.Endpoints(), redisconn.TLSFiles{}, 10*time.Second, procstat.ServerCPU{}, nil)
	if err != nil || c.CyclesPerS <= 0 {
		t.Fatalf("ceiling %+v, %v", c, err)
	}
	for i, m := range r.Endpoints() {
		cl := redis.NewClient(m.GoRedis())
		n, err := cl.DBSize(ctx).Result()
		cl.Close()
		if err != nil || n != 0 {
			t.Errorf("master %d: %d keys left after the ceiling (%v)", i, n, err)
		}
	}
}
