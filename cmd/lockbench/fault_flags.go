package main

import (
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose/faults"
)

// bindFaults registers --fault. A StringArray, not a slice: "masters=1,2"
// keeps its comma.
func bindFaults(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringArrayVar(&c.Faults, "fault", nil, "inject a fault during the run (repeatable), e.g. kill:masters=3:at=5s:restart=immediate|delayed|never, "+
		"stop:masters=1:at=5s:for=2s, latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s, partition:masters=1,2:at=5s:for=3s, reset:masters=1:at=5s, "+
		"pause-client:workers=1:at=2s:for=ttl+1s, clock-jump:masters=2:+5s[:at=2s][:for=3s]; "+
		"at counts from the start of the load (warmup included), durations may be ttl-relative (ttl+1s); "+
		"masters=N names the backend's servers: Redis masters, etcd members, the ZooKeeper or PostgreSQL server (1), single: master 1, replica 2")
}

// validateFaults parses every --fault against the topology the run will have.
func (c *RunConfig) validateFaults() error {
	if len(c.Faults) == 0 {
		return nil
	}
	fs, _, err := faults.ParseAll(c.Faults)
	if err != nil {
		return usageError{err}
	}
	for _, f := range fs {
		servers, local, err := c.faultServers(f)
		if err != nil {
			return err
		}
		if err := f.Check(servers, c.Workload.Workers, local); err != nil {
			return usageError{err}
		}
		if end := c.Workload.Warmup + c.Workload.Duration; f.At.Resolve(c.Driver.Redlock.TTL) >= end {
			return usagef("--fault %q: at=%v is not before the end of the run (--warmup %v + --duration %v = %v)",
				f.Spec, f.At.Resolve(c.Driver.Redlock.TTL), c.Workload.Warmup, c.Workload.Duration, end)
		}
	}
	// Masters run under clockshift only when a clock jump needs it; the
	// config records it.
	c.Topology.Redis.ClockShift = faults.Has(fs, faults.ClockJump)
	return nil
}
