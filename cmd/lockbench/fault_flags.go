package main

import (
	"github.com/spf13/pflag"
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
