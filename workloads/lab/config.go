package lab

import (
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/drivers/pglock"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/drivers/zklock"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/workloads"
)

// Config is one cell: everything a measurement was told. It is written
// into every result (the CLI's config embeds it, so its JSON keys are the
// summary's "config" keys).
type Config struct {
	Driver   backends.Spec    `json:"driver"`
	Topology compose.Spec     `json:"topology"`
	Workload workloads.Config `json:"workload"`
	// Faults are --fault specs played during the run (compose/faults).
	Faults []string `json:"faults,omitempty" flag:"fault,array" help:"inject a fault during the run (repeatable), e.g. kill:masters=3:at=5s:restart=immediate|delayed|never, stop:masters=1:at=5s:for=2s, latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s, partition:masters=1,2:at=5s:for=3s, reset:masters=1:at=5s, pause-client:workers=1:at=2s:for=ttl+1s, clock-jump:masters=2:+5s[:at=2s][:for=3s], drop-release:at=2s (the next release is lost: its key stays held until the TTL); at counts from the start of the load (warmup included), durations may be ttl-relative (ttl+1s); masters=N names the backend's servers: Redis masters, etcd members, the ZooKeeper or PostgreSQL server (1), single: master 1, replica 2"`
	// RTT is a round trip added to every master through a proxy (compare
	// --rtt): network distance on loopback.
	RTT time.Duration `json:"rtt,omitempty"`
}

// DefaultConfig is Redlock over go-redis fan-out on 5 local masters, the
// workloads' defaults, and every backend's own defaults.
func DefaultConfig() Config {
	return Config{
		Driver: backends.Spec{Backend: "redlock", Client: "goredis", Mux: "fanout",
			Redlock: redlock.DefaultConfig(), Multiplex: multiplex.Options{Batch: multiplex.DefaultBatch}, Etcd: etcdlock.DefaultConfig(), Tuning: backends.DefaultTuning(),
			ZooKeeper: zklock.DefaultConfig(), Postgres: pglock.DefaultConfig(), WaitTimeout: 100 * time.Millisecond},
		Topology: compose.Spec{Redis: compose.RedisOptions{Masters: 5, Persistence: "none"}, Etcd: compose.EtcdOptions{Members: 3},
			Sentinel: compose.DefaultSentinelOptions()},
		Workload: workloads.DefaultConfig(),
	}
}

// Name is backend/client/mux/workload.
func (c Config) Name() string { return c.Driver.Name() + "/" + c.Workload.Workload }
