package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/workloads"
)

// RunConfig is everything a run was told. It is written into every result.
type RunConfig struct {
	Driver   backends.Spec    `json:"driver"`
	Topology compose.Spec     `json:"topology"`
	Workload workloads.Config `json:"workload"`
	JSON     string           `json:"-"`
	Out      string           `json:"-"`
	Quiet    bool             `json:"-"`
}

func defaultRunConfig() RunConfig {
	return RunConfig{
		Driver:   backends.Spec{Backend: "redlock", Client: "goredis", Mux: "fanout", Redlock: redlock.DefaultConfig()},
		Topology: compose.Spec{Redis: compose.RedisOptions{Masters: 5, Persistence: "none"}},
		Workload: workloads.DefaultConfig(),
	}
}

// bindTopology registers the server flags.
func bindTopology(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringSliceVar(&c.Topology.RedisAddrs, "redis", nil, "external Redis masters host:port,... (default: start --masters local redis-server processes)")
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
	fs.IntVar(&c.Driver.Multiplex.Batch, "batch", 64, "pipeline mux: most commands per flush")
	fs.DurationVar(&c.Driver.Multiplex.FlushDelay, "flush-delay", 0, "pipeline mux: wait this long for more commands before a flush")
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
}

// bindOutput registers the result flags.
func bindOutput(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringVar(&c.JSON, "json", "", "write the summary JSON to FILE (- for stdout)")
	fs.StringVar(&c.Out, "out", "", "write summary.json, config.json and .hlog interval logs into DIR")
	fs.BoolVarP(&c.Quiet, "quiet", "q", false, "no progress line on stderr")
}

// validate checks everything before any server starts, naming the flag.
func (c *RunConfig) validate() error {
	if err := c.Driver.Validate(); err != nil {
		return usageError{err}
	}
	if err := c.Workload.Validate(); err != nil {
		return usageError{err}
	}
	r := c.Driver.Redlock
	switch {
	case r.TTL <= 0:
		return usagef("--ttl %v: must be positive", r.TTL)
	case r.NodeTimeout <= 0:
		return usagef("--node-timeout %v: must be positive", r.NodeTimeout)
	case r.TTL <= r.NodeTimeout:
		return usagef("--ttl %v: must be larger than --node-timeout %v", r.TTL, r.NodeTimeout)
	}
	if err := r.Validate(); err != nil {
		return usagef("--ttl: %v", err)
	}
	b, _ := backends.Lookup(c.Driver.Backend)
	c.Topology.NoRedis = !b.NeedsRedis
	if len(c.Topology.RedisAddrs) > 0 {
		addrs, err := compose.ParseAddrs("redis", c.Topology.RedisAddrs)
		if err != nil {
			return usageError{err}
		}
		c.Topology.RedisAddrs = addrs
		c.Topology.Redis.Masters = len(addrs)
	}
	if c.Topology.Redis.Masters < 1 {
		return usagef("--masters %d: must be at least 1", c.Topology.Redis.Masters)
	}
	if _, err := compose.RedisArgs(0, "", c.Topology.Redis.Persistence); err != nil {
		return usagef("--persistence %q: want none, everysec or always", c.Topology.Redis.Persistence)
	}
	if c.JSON != "" && c.JSON != "-" {
		if err := checkWritable(filepath.Dir(c.JSON)); err != nil {
			return usagef("--json %q: %v", c.JSON, err)
		}
	}
	if c.Out != "" {
		if err := checkDir(c.Out); err != nil {
			return usagef("--out %q: %v", c.Out, err)
		}
	}
	return nil
}

// checkWritable proves a file can be created in dir, leaving nothing behind.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".lockbench-probe-*")
	if err != nil {
		return fmt.Errorf("not writable: %v", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkDir accepts an existing writable dir or one whose parent is writable.
func checkDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return fmt.Errorf("not a directory")
	case err == nil:
		return checkWritable(dir)
	case os.IsNotExist(err):
		return checkWritable(filepath.Dir(filepath.Clean(dir)))
	}
	return err
}

// runName is backend/client/mux/workload.
func (c *RunConfig) runName() string { return c.Driver.Name() + "/" + c.Workload.Workload }
