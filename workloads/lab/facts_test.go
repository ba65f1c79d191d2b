package lab_test

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestLabFacts: what a lab tells a summary about its servers, how many
// servers each backend's lock lives on, and its masters' CPU as a cost
// sampler reads it.
func TestLabFacts(t *testing.T) {
	testenv.Servers(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 2
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	v := l.Versions(ctx, map[string]string{})
	if v["redis-server"] == "" {
		t.Errorf("versions %v: no redis-server", v)
	}
	if s := l.Servers(nil, nil); len(s) != 2 || s[0].Endpoint == "" || s[0].Role != "master" {
		t.Errorf("servers %+v", s)
	}
	for backend, want := range map[string]int{"redlock": 2, "redsync": 2, "rueidislock": 1, "redislock": 1, "etcd": 0, "postgres": 1} {
		if got := l.Masters(backends.Spec{Backend: backend}); got != want {
			t.Errorf("Masters(%s) = %d, want %d", backend, got, want)
		}
	}
	cpu, done := l.ServerCPU()
	defer done()
	if cpu.Source != procstat.ServerCPUProc {
		t.Errorf("source %q, want proc for masters the lab started", cpu.Source)
	}
	if _, err := cpu.Read(); err != nil {
		t.Errorf("read: %v", err)
	}
}
