package main

import (
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/multiplex"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads/lab"
)

// RunConfig is everything a run was told. It is written into every result.
// The cell itself is a lab.Config; the rest is how the CLI writes and shows
// it.
type RunConfig struct {
	lab.Config
	JSON  string `json:"-"`
	Out   string `json:"-"`
	Quiet bool   `json:"-"`
	// AllowFailures: a run where most attempts fail is what was wanted
	// (a fault experiment by hand); without it such a run exits 1.
	AllowFailures bool `json:"allow_failures,omitempty"`
	// stdout and stderr are the command's (cmd.OutOrStdout, ErrOrStderr, so
	// tests run commands in-process); nil is os.Stdout, os.Stderr.
	stdout, stderr io.Writer
	Format         string `json:"-"` // stdout: table | csv | gobench
	// RedisPasswordFile is --redis-password-file (redis_flags.go).
	RedisPasswordFile string `json:"-"`
	// MetricsAddr, Wide: see bindDisplay (display.go).
	MetricsAddr string         `json:"-"`
	Wide        bool           `json:"-"`
	metrics     *prom.Exporter // set by startMetrics; nil: no --metrics-addr
}

func defaultRunConfig() RunConfig {
	return RunConfig{Config: lab.DefaultConfig()}
}

// bindTopology registers the server flags.
func bindTopology(fs *pflag.FlagSet, c *RunConfig) {
	fs.Var(redisList{&c.Topology.RedisAddrs}, "redis", redisHelp)
	bindRedisAuth(fs, c)
	fs.IntVar(&c.Topology.Redis.Masters, "masters", c.Topology.Redis.Masters, "number of local Redis masters to start")
	fs.StringVar(&c.Topology.Redis.Persistence, "persistence", c.Topology.Redis.Persistence, "local masters' persistence: none|everysec|always (AOF fsync)")
}

// bindDriver registers the lock backend flags.
func bindDriver(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringVar(&c.Driver.Backend, "backend", c.Driver.Backend, "lock backend: "+strings.Join(backends.Names(), "|"))
	fs.StringVar(&c.Driver.Client, "client", c.Driver.Client, "Redis client library: goredis|rueidis")
	fs.StringVar(&c.Driver.Mux, "mux", c.Driver.Mux, "how a command reaches the N masters: sequential|fanout|pipeline|auto")
	fs.DurationVar(&c.Driver.Redlock.TTL, "ttl", c.Driver.Redlock.TTL, "lock TTL (auto-release time)")
	fs.DurationVar(&c.Driver.Redlock.NodeTimeout, "node-timeout", c.Driver.Redlock.NodeTimeout, "per-master timeout of one command")
	fs.IntVar(&c.Driver.Multiplex.Batch, "batch", multiplex.DefaultBatch, "pipeline mux: most commands per master per flush")
	fs.DurationVar(&c.Driver.Multiplex.FlushDelay, "flush-delay", 0, "pipeline mux: wait this long for more commands before a flush")
	bindTuning(fs, &c.Driver.Tuning)
}

// bindWorkload registers the load flags.
func bindWorkload(fs *pflag.FlagSet, c *RunConfig) {
	w := &c.Workload
	fs.StringVar(&w.Workload, "workload", w.Workload, "key pattern: see `lockbench workloads`")
	fs.IntVar(&w.Keys, "keys", w.Keys, "hot keys shared by all workers (contended workloads)")
	fs.IntVar(&w.Workers, "workers", w.Workers, "concurrent workers, each one lock cycle at a time")
	fs.DurationVar(&w.Duration, "duration", w.Duration, "measured time per run")
	fs.DurationVar(&w.Warmup, "warmup", w.Warmup, "unrecorded time before measuring")
	fs.DurationVar(&w.Hold, "hold", w.Hold, "time spent inside the critical section")
	fs.DurationVar(&w.RetryDelay, "retry-delay", w.RetryDelay, "a failed attempt is retried after a random delay in [0, retry-delay)")
	fs.IntVar(&w.Tries, "tries", w.Tries, "attempts per cycle before giving up")
	fs.StringVar(&w.Prefix, "prefix", w.Prefix, "start of every key: give each process its own when several share the masters")
	fs.Float64Var(&w.Rate, "rate", w.Rate, "open loop: cycles/s across all workers on a fixed schedule, latency from the intended start (0: closed loop)")
	fs.DurationVar(&w.Ramp, "ramp", w.Ramp, "raise the rate (closed loop: the workers) linearly over this time, inside the warmup")
	fs.Float64Var(&w.ZipfS, "zipf-s", w.ZipfS, "zipf workload: exponent s, key i drawn with weight 1/(i+1)^s")
	fs.StringVar(&w.HoldDist, "hold-dist", w.HoldDist, "hold time distribution with mean --hold: fixed|uniform|exp")
}

// bindOutput registers the result flags.
func bindOutput(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringVar(&c.JSON, "json", "", "write the summary JSON to FILE (- for stdout)")
	fs.StringVar(&c.Out, "out", "", "write summary.json, config.json and .hlog interval logs into DIR")
	fs.BoolVarP(&c.Quiet, "quiet", "q", false, "no progress line on stderr")
	fs.BoolVar(&c.AllowFailures, "allow-failures", false, "exit 0 even when more than half the attempts fail (implied by --fault)")
	fs.StringVar(&c.Format, "format", "table", "stdout: table | csv (the runs table, every column) | gobench (Go benchmark lines for benchstat and CI benchmark actions)")
}

// validate checks everything before any server starts, naming the flag.
func (c *RunConfig) validate() error {
	switch {
	case c.Format == "":
		c.Format = "table"
	case c.Format != "table" && c.Format != "csv" && c.Format != "gobench":
		return usagef("--format %q: want table, csv or gobench", c.Format)
	case c.Format != "table" && c.JSON == "-":
		return usagef("--format %s: stdout is taken by --json -", c.Format)
	}
	// The flags that take addresses, URLs and credentials first: the
	// library's checks count the servers they name.
	b, _ := backends.Lookup(c.Driver.Backend)
	if err := c.Topology.ResolveExternal(c.RedisPasswordFile, b.NeedsEtcd); err != nil {
		return fieldUsage(results.Within("topology", err))
	}
	if err := c.Config.Validate(); err != nil {
		return fieldUsage(err)
	}
	if c.JSON != "" {
		if err := checkOutputFile("--json", c.JSON); err != nil {
			return err
		}
	}
	if c.Out != "" {
		if err := checkDir(c.Out); err != nil {
			return usagef("--out %q: %v", c.Out, err)
		}
	}
	return nil
}

// out is where tables and stdout JSON go.
func (c *RunConfig) out() io.Writer {
	if c.stdout == nil {
		return os.Stdout
	}
	return c.stdout
}

// setIO takes the command's writers.
func (c *RunConfig) setIO(cmd *cobra.Command) {
	c.stdout, c.stderr = cmd.OutOrStdout(), cmd.ErrOrStderr()
}

// errOut is where progress, phases and warnings go.
func (c *RunConfig) errOut() io.Writer {
	if c.stderr == nil {
		return os.Stderr
	}
	return c.stderr
}

// bindEtcd registers the etcd backend's and cluster's flags.
func bindEtcd(fs *pflag.FlagSet, c *RunConfig) {
	e := &c.Driver.Etcd
	fs.StringSliceVar(&c.Topology.EtcdAddrs, "etcd", nil, "external etcd cluster host:port or https://host:port,... (default: start --etcd-members local members)")
	fs.IntVar(&c.Topology.Etcd.Members, "etcd-members", c.Topology.Etcd.Members, "local etcd members to start, each its own process: 1|3|5")
	fs.StringVar(&e.Mode, "etcd-mode", e.Mode, "etcd lock path: client (concurrency.Mutex) | rpc (v3lock Lock/Unlock RPCs)")
	fs.BoolVar(&e.Wait, "etcd-wait", e.Wait, "client mode: one attempt is Mutex.Lock (FIFO queue) instead of TryLock")
	fs.DurationVar(&e.WaitTimeout, "etcd-wait-timeout", e.WaitTimeout, "bound of one etcd attempt; a waiting attempt that runs out counts as busy")
	fs.BoolVar(&e.SessionPerCycle, "etcd-session-per-cycle", e.SessionPerCycle, "grant and revoke a session every cycle instead of one per worker")
	fs.BoolVar(&e.KeepAlive, "etcd-keepalive", e.KeepAlive, "keep session leases alive (false: a lease lives --ttl like a Redlock key; implies a session per cycle)")
	bindEtcdAccess(fs, c)
}

// bindPeers registers the peer libraries' flags.
func bindPeers(fs *pflag.FlagSet, c *RunConfig) {
	fs.BoolVar(&c.Driver.RedsyncNoFailFast, "redsync-no-fail-fast", false, "redsync: WithFailFast(false), wait for every master's answer (fail-fast can leave orphan keys until TTL)")
}
