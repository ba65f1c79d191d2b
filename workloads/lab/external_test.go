package lab_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestExternalMastersCost: on masters the lab did not start (dialed, with
// their password), the server CPU per cycle comes from INFO cpu, and the
// lab names the masters' errors by address.
func TestExternalMastersCost(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := compose.StartRedis(ctx, compose.RedisOptions{Masters: 2, Persistence: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Password == "" {
		t.Fatal("local masters run without a password: the test needs one")
	}
	cfg := lab.DefaultConfig()
	cfg.Topology.RedisMasters = r.Endpoints()
	cfg.Topology.Redis.Masters = 2
	cfg.Driver.Client, cfg.Driver.Mux = "rueidis", "pipeline"
	cfg.Workload.Workers, cfg.Workload.Duration, cfg.Workload.Warmup = 4, 500*time.Millisecond, 100*time.Millisecond
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if l.Topo.Redis != nil {
		t.Fatal("the lab started masters of its own")
	}
	c, err := l.Measure(ctx, cfg, lab.Observers{})
	if err != nil {
		t.Fatal(err)
	}
	cost := c.Run.Cost
	if cost == nil || cost.ServerCPUSource != procstat.ServerCPUInfo || cost.ServerCPUUSPerCycle <= 0 {
		t.Fatalf("cost %+v: want server CPU per cycle from INFO cpu of the external masters", cost)
	}
	if c.Run.Masters != 2 || c.Run.Counts.Cycles == 0 {
		t.Errorf("masters %d cycles %d", c.Run.Masters, c.Run.Counts.Cycles)
	}
}
