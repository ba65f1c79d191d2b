package lab

import (
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	_ "github.com/lockbench/lockbench/drivers/backends/all" // every backend lockbench ships, by name
	"github.com/lockbench/lockbench/results/output"
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
	Faults []string `json:"faults,omitempty" flag:"fault,array" value:"SPEC" help:"inject a fault during the run (repeatable); a SPEC is KIND:key=value:..., KIND one of kill, stop, latency, partition, reset, pause-client, clock-jump, clock-drift, drop-release, e.g. kill:masters=3:at=5s:restart=delayed (more under Examples); at= counts from the start of the load (warmup included); durations may be ttl-relative (ttl+1s); masters=N numbers the backend's servers: Redis masters, etcd members, the ZooKeeper or PostgreSQL server (1), single's master 1 and replica 2"`
	// RTT is a round trip added to every master by a delay line in a
	// process of its own (compare --rtt): network distance on loopback.
	RTT time.Duration `json:"rtt,omitempty"`
	// RTTJitter varies each round trip by up to ± this much (each
	// direction a uniform draw in ±RTTJitter/2), never reordering bytes.
	RTTJitter time.Duration `json:"rtt_jitter,omitempty"`
	// RTTPerMaster is each master's own round trip, in the masters'
	// order, instead of RTT: an uneven fleet (masters in three zones).
	RTTPerMaster []time.Duration `json:"rtt_per_master,omitempty" flag:"rtt-per-master" help:"each master's own added round trip, in order, e.g. 300us,300us,1ms,1ms,2ms (masters in three zones); as many as there are masters"`
}

// DefaultMux is the strategy of a run that names none: the one the measured
// strategy tables recommend. Over 5 local masters, go-redis and rueidis,
// uncontended and contended, pipeline led every client and workload
// (compare --repeat 3; docs/cli.md has the numbers): one write per master
// for the commands of many workers, where fan-out and sequential write one
// per command.
const DefaultMux = "pipeline"

// DefaultConfig is Redlock over go-redis, DefaultMux, on 5 local masters, the
// workloads' defaults, and every backend's own defaults.
func DefaultConfig() Config {
	driver := backends.DefaultSpec()
	driver.Mux = DefaultMux
	return Config{
		Driver: driver,
		Topology: compose.Spec{Redis: compose.RedisOptions{Masters: 5, Persistence: "none"}, Etcd: compose.EtcdOptions{Members: 3},
			Sentinel: compose.DefaultSentinelOptions()},
		Workload: workloads.DefaultConfig(),
	}
}

// Name is backend/client/mux/workload.
func (c Config) Name() string { return c.Driver.Name() + "/" + c.Workload.Workload }

// Inputs are the files c reads whole (the masters' password and TLS files,
// etcd's certificates), each named by its field's Go path, for a command to
// check with its outputs (output.Plan) before any server starts: no output
// may overwrite one.
func (c Config) Inputs() []output.Path {
	t := c.Topology
	var in []output.Path
	for _, f := range []output.Path{
		{Dest: "Topology.RedisAuth.PasswordFile", Path: t.RedisAuth.PasswordFile},
		{Dest: "Topology.RedisAuth.TLS.CACert", Path: t.RedisAuth.TLS.CACert},
		{Dest: "Topology.RedisAuth.TLS.Cert", Path: t.RedisAuth.TLS.Cert},
		{Dest: "Topology.RedisAuth.TLS.Key", Path: t.RedisAuth.TLS.Key},
		{Dest: "Topology.EtcdAccess.CACert", Path: t.EtcdAccess.CACert},
		{Dest: "Topology.EtcdAccess.Cert", Path: t.EtcdAccess.Cert},
		{Dest: "Topology.EtcdAccess.Key", Path: t.EtcdAccess.Key},
	} {
		if f.Path != "" {
			in = append(in, f)
		}
	}
	return in
}
