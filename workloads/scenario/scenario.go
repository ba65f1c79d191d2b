package scenario

import (
	"context"
	"slices"
	"time"

	"github.com/lockbench/lockbench/workloads/lab"
)

// Kind is how a scenario is measured.
type Kind string

const (
	// Faults: one cell on local Redis masters with faults played during the
	// load, judged on the referee's violations and the availability timeline.
	Faults Kind = "faults"
	// Failover: a single master with a replica and a Sentinel; A is granted a
	// key that never reached the replica, the master is killed, B contends.
	Failover Kind = "failover"
	// ClientPause: a holder stalls until its lease is gone, then writes to a
	// register that refuses stale fencing tokens; one row per backend.
	ClientPause Kind = "client-pause"
)

// Scenario is one named, documented experiment: how it is set up and what
// should come out.
type Scenario struct {
	Name, About string
	Kind        Kind
	// Expect is the expected outcome; a ClientPause scenario judges each
	// backend's row by its own (Backends), Expect.Words sums them up.
	Expect Expect
	// Setup adjusts a Faults scenario's cell, on top of the shared base (5
	// local masters without persistence, contended, no warmup).
	Setup func(*lab.Config)
	// WaitReplicas is a Failover scenario's WAIT K after the SET.
	WaitReplicas int
	// Backends are a ClientPause scenario's rows.
	Backends []pauseBackend
}

// pauseBackend is one client-pause row: a backend, what its fencing (or
// lack of it) should do to the stale write, and how its rounds are
// measured (nil: measurePause, one Locker whose holder stalls).
type pauseBackend struct {
	Backend string
	Expect  Expect
	Measure func(ctx context.Context, backend string) (pauseMeasure, error)
}

// All is the catalogue, in the order the CLI lists and runs it.
func All() []Scenario {
	out := slices.Clone(faultScenarios)
	out = append(out, failoverScenarios...)
	return append(out, clientPause)
}

// catalogueNames are the catalogue's names, in order.
func catalogueNames() []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	return out
}

// Lookup finds a scenario by name.
func Lookup(name string) (Scenario, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Scenario{}, false
}

// clientPause is the critique's process pause, on three backends.
var clientPause = Scenario{
	Name: "client-pause",
	About: "Holder A stalls inside its critical section until its lease expired and B holds the lock, " +
		"then writes (3 rounds, Redlock, etcd and ZooKeeper).",
	Kind:   ClientPause,
	Expect: Expect{Words: "Redlock: the stale write lands; etcd's revision and ZooKeeper's czxid, used as fencing tokens, get it refused"},
	Backends: []pauseBackend{
		{"redlock", Expect{Words: "stale writes accepted (no fencing token)", Violations: yes}, nil},
		{"etcd", Expect{Words: "stale writes rejected by the fencing token", Violations: No, Fenced: true}, nil},
		{"zookeeper", Expect{Words: "stale writes rejected by the fencing token (czxid)", Violations: No, Fenced: true}, measurePauseZK},
	},
}

// base is what every Faults scenario shares: 5 local masters without
// persistence, a few hot keys, no warmup (faults are timed from the start
// of the load).
func base() lab.Config {
	c := lab.DefaultConfig()
	c.Topology.Redis.Masters = 5
	c.Topology.Redis.Persistence = "none"
	c.Workload.Workload = "contended"
	c.Workload.Warmup = 0
	c.Workload.RetryDelay = 5 * time.Millisecond
	c.Workload.Tries = 1000
	return c
}
