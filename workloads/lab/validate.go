package lab

import (
	"errors"
	"strings"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/results/fielderr"
)

// MaxWorkers bounds Workload.Workers. At 100000 a 2 s run took 12.9 s,
// 1.2 GB and timed out 98.5 % of its attempts: far past what any set of
// masters on one box serves, so a value above this is a typo or a
// misunderstanding.
const MaxWorkers = 10000

// Validate checks c before any server starts and fills in what follows
// from it: which servers the backend needs (Topology.Needs* and NoRedis,
// derived from the backend's descriptor by ServersFor, never given), the
// etcd member count of an external cluster, and whether the masters run
// under clockshift (a clock-jump or clock-drift fault). Bad input is a
// *fielderr.Error naming the field by its JSON path
// ("workload.workers"); a bad fault names its spec.
func (c *Config) Validate() error {
	if err := c.Driver.Validate(); err != nil {
		return fielderr.Within("driver", err)
	}
	if err := c.Workload.Validate(); err != nil {
		return fielderr.Within("workload", err)
	}
	if w := c.Workload.Workers; w > MaxWorkers {
		return fielderr.Invalid("workload.workers", w, "at most %d in one lockbench process (each worker is a goroutine with its own client state; run several processes with their own prefix and merge them)", MaxWorkers)
	}
	r := c.Driver.Redlock
	switch {
	case r.TTL <= 0:
		return fielderr.Invalid("driver.redlock.ttl", r.TTL, "must be positive")
	case r.NodeTimeout <= 0:
		return fielderr.Invalid("driver.redlock.node_timeout", r.NodeTimeout, "must be positive")
	case r.TTL <= r.NodeTimeout:
		return fielderr.Invalid("driver.redlock.ttl", r.TTL, "must be larger than the node timeout %v", r.NodeTimeout)
	}
	if err := r.Validate(); err != nil {
		return &fielderr.Error{Field: "driver.redlock.ttl", Err: err}
	}
	b, _ := backends.Lookup(c.Driver.Backend)
	c.Topology = ServersFor(c.Topology, b)
	t := &c.Topology
	if t.NeedsEtcd && len(t.EtcdAddrs) > 0 {
		t.Etcd.Members = len(t.EtcdAddrs)
	} else if t.NeedsEtcd && !compose.ValidEtcdMembers(t.Etcd.Members) {
		return fielderr.Invalid("topology.etcd.members", t.Etcd.Members, "want 1, 3 or 5")
	}
	if m := t.Redis.Masters; m < 1 || m > redlock.MaxMasters {
		return fielderr.Invalid("topology.redis.masters", m, "must be 1 to %d", redlock.MaxMasters)
	}
	if _, err := compose.RedisArgs(0, "", t.Redis.Persistence); err != nil {
		return fielderr.Invalid("topology.redis.persistence", t.Redis.Persistence, "want none, everysec or always")
	}
	n, _ := faults.Count(c.Topology, faultsOn(c.Driver.Backend))
	if err := c.validateDistance(n); err != nil {
		return err
	}
	return c.validateFaults()
}

// validateFaults parses every fault against the topology the run will
// have: the servers masters=N may name, the workers a client pause may
// name, a start before the end of the run.
func (c *Config) validateFaults() error {
	if len(c.Faults) == 0 {
		return nil
	}
	fs, _, err := faults.ParseAll(c.Faults)
	if err != nil {
		return faultError(err)
	}
	on := faultsOn(c.Driver.Backend)
	for _, f := range fs {
		if err := faults.Applies(f, on); err != nil {
			return faultError(err)
		}
		servers, local := faults.Count(c.Topology, on)
		if err := f.Check(servers, c.Workload.Workers, local); err != nil {
			return faultError(err)
		}
		if err := f.CheckTTL(c.Driver.Redlock.TTL); err != nil {
			return faultError(err)
		}
		if end := c.Workload.Warmup + c.Workload.Duration; f.At.Resolve(c.Driver.Redlock.TTL) >= end {
			return fielderr.Invalid("faults", f.Spec, "at=%v is not before the end of the run (warmup %v + duration %v = %v)",
				f.At.Resolve(c.Driver.Redlock.TTL), c.Workload.Warmup, c.Workload.Duration, end)
		}
	}
	// Masters run under clockshift only when a clock jump needs it; the
	// config records it.
	c.Topology.Redis.ClockShift = faults.Clocked(fs)
	return nil
}

// faultError is a compose/faults error ("fault \"SPEC\": why") as a field
// error of Faults naming the spec.
func faultError(err error) error {
	spec, why, ok := strings.Cut(strings.TrimPrefix(err.Error(), "fault "), ": ")
	if !ok || !strings.HasPrefix(err.Error(), "fault \"") {
		return &fielderr.Error{Field: "faults", Err: err}
	}
	return &fielderr.Error{Field: "faults", Value: spec, Err: errors.New(why)}
}
