package lab_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestValidate: bad input is a field error naming the field by its JSON
// path; a good config gets what follows from it filled in.
func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		edit  func(*lab.Config)
		field string // "" valid
	}{
		{"defaults", func(*lab.Config) {}, ""},
		{"unknown backend", func(c *lab.Config) { c.Driver.Backend = "chubby" }, "driver.backend"},
		{"workers 0", func(c *lab.Config) { c.Workload.Workers = 0 }, "workload.workers"},
		{"too many workers", func(c *lab.Config) { c.Workload.Workers = lab.MaxWorkers + 1 }, "workload.workers"},
		{"ttl below node timeout", func(c *lab.Config) { c.Driver.Redlock.TTL = 10 * time.Millisecond }, "driver.redlock.ttl"},
		{"node timeout 0", func(c *lab.Config) { c.Driver.Redlock.NodeTimeout = 0 }, "driver.redlock.node_timeout"},
		{"drift eats the ttl", func(c *lab.Config) { c.Driver.Redlock.TTL, c.Driver.Redlock.DriftMin = time.Second, time.Second }, "driver.redlock.ttl"},
		{"masters 0", func(c *lab.Config) { c.Topology.Redis.Masters = 0 }, "topology.redis.masters"},
		{"persistence", func(c *lab.Config) { c.Topology.Redis.Persistence = "sometimes" }, "topology.redis.persistence"},
		{"etcd members 2", func(c *lab.Config) { c.Driver.Backend, c.Topology.Etcd.Members = "etcd", 2 }, "topology.etcd.members"},
		{"unknown fault", func(c *lab.Config) { c.Faults = []string{"meteor:masters=1"} }, "faults"},
		{"fault after the run", func(c *lab.Config) { c.Faults = []string{"kill:masters=1:at=1h"} }, "faults"},
		{"fault on a 6th of 5 masters", func(c *lab.Config) { c.Faults = []string{"kill:masters=6:at=1s"} }, "faults"},
		{"partition on single", func(c *lab.Config) {
			c.Driver.Backend, c.Driver.Client, c.Driver.Mux = "single", "", ""
			c.Faults = []string{"partition:masters=1:at=1s:for=1s"}
		}, "faults"},
	} {
		cfg := lab.DefaultConfig()
		c.edit(&cfg)
		err := cfg.Validate()
		var fe *fielderr.Error
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field != "" && (!errors.As(err, &fe) || fe.Field != c.field):
			t.Errorf("%s: error %v, want one on %s", c.name, err, c.field)
		}
	}
	// What follows from the backend and the faults.
	cfg := lab.DefaultConfig()
	cfg.Driver.Backend = "etcd"
	cfg.Topology.EtcdAddrs = []string{"a:1", "b:2", "c:3"}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if !cfg.Topology.NoRedis || !cfg.Topology.NeedsEtcd || cfg.Topology.Etcd.Members != 3 {
		t.Errorf("etcd topology %+v", cfg.Topology)
	}
	cfg = lab.DefaultConfig()
	cfg.Faults = []string{"clock-jump:masters=2:+5s:at=2s"}
	if err := cfg.Validate(); err != nil || !cfg.Topology.Redis.ClockShift {
		t.Errorf("clock jump: %v, clockshift %v", err, cfg.Topology.Redis.ClockShift)
	}
}
