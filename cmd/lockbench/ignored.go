package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/workloads/lab"
)

// applies is one flag that means something only for some runs: when given
// for a run it does not apply to, lockbench refuses it instead of
// ignoring it (a run that silently did something else than asked).
type applies struct {
	flag string
	ok   func(c lab.Config, b backends.Backend) bool
	why  string // %s: the backend, client or mux
}

func usesRedis(c lab.Config, b backends.Backend) bool { return b.Uses(backends.Redis) }
func uses(k backends.Server) func(lab.Config, backends.Backend) bool {
	return func(c lab.Config, b backends.Backend) bool { return b.Uses(k) }
}

// withClient: the backend runs over a chosen client library, this one.
func withClient(name string) func(lab.Config, backends.Backend) bool {
	return func(c lab.Config, b backends.Backend) bool {
		return len(b.Clients) > 0 && c.Driver.Client == name
	}
}

// withMux: the backend runs over a chosen strategy, one of these.
func withMux(names ...string) func(lab.Config, backends.Backend) bool {
	return func(c lab.Config, b backends.Backend) bool {
		return len(b.Muxes) > 0 && contains(names, c.Driver.Mux)
	}
}

// appliesTo lists the flags refused where they do not apply.
var appliesTo = []applies{
	{"redis", usesRedis, "--backend %s uses no Redis masters"},
	{"masters", func(c lab.Config, b backends.Backend) bool {
		return b.Uses(backends.Redis) && len(c.Topology.RedisAddrs) == 0
	},
		"the masters are --redis's (or --backend %s uses none)"},
	{"redis-password-file", func(c lab.Config, b backends.Backend) bool {
		return b.Uses(backends.Redis) && len(c.Topology.RedisAddrs) > 0
	},
		"it is for --redis masters; local ones get a generated password (backend %s)"},
	{"persistence", func(c lab.Config, b backends.Backend) bool {
		return b.Uses(backends.Redis) && len(c.Topology.RedisAddrs) == 0
	},
		"it configures local Redis masters, which this run does not start (backend %s)"},
	{"client", func(c lab.Config, b backends.Backend) bool { return len(b.Clients) > 0 }, "--backend %s has no client choice"},
	{"mux", func(c lab.Config, b backends.Backend) bool { return len(b.Muxes) > 0 }, "--backend %s has no strategy choice"},
	{"pg-mode", uses(backends.Postgres), "it is --backend postgres's, not %s's"},
	{"postgres", uses(backends.Postgres), "--backend %s uses no PostgreSQL"},
	{"zookeeper", uses(backends.ZooKeeper), "--backend %s uses no ZooKeeper"},
	{"etcd", uses(backends.Etcd), "--backend %s uses no etcd"},
	{"rueidis-pipes", withClient("rueidis"), "it tunes the rueidis client (here: %s)"},
	{"rueidis-max-flush-delay", withClient("rueidis"), "it tunes the rueidis client (here: %s)"},
	{"goredis-pool-size", withClient("goredis"), "it tunes the go-redis client (here: %s)"},
	{"goredis-auto-batch", withClient("goredis"), "it tunes the go-redis client (here: %s)"},
	{"goredis-auto-flush-delay", withClient("goredis"), "it tunes the go-redis client (here: %s)"},
	{"goredis-auto-concurrency", withClient("goredis"), "it tunes the go-redis client (here: %s)"},
	{"batch", withMux("pipeline"), "it is the pipeline strategy's (here: %s)"},
	{"flush-delay", withMux("pipeline"), "it is the pipeline strategy's (here: %s)"},
	{"max-in-flight", withMux("pipeline"), "it is the pipeline strategy's (here: %s)"},
}

// refuseIgnored refuses a flag given (fs.Changed) for a run it does not
// apply to, naming it and why: exit 2 before anything starts. skip names
// flags the command checks itself (compare's lists).
func refuseIgnored(fs *pflag.FlagSet, c lab.Config, skip ...string) error {
	b, ok := backends.Lookup(c.Driver.Backend)
	if !ok {
		return nil // the backend's own check names it
	}
	for _, a := range appliesTo {
		if f := fs.Lookup(a.flag); f == nil || !f.Changed || contains(skip, a.flag) || a.ok(c, b) {
			continue
		}
		subject := c.Driver.Backend
		switch {
		case strings.HasPrefix(a.why, "it tunes"):
			subject = c.Driver.Client
			if len(b.Clients) == 0 {
				subject = "backend " + c.Driver.Backend
			}
		case strings.HasPrefix(a.why, "it is the pipeline"):
			subject = "--mux " + c.Driver.Mux
			if len(b.Muxes) == 0 {
				subject = "backend " + c.Driver.Backend
			}
		}
		return usagef("--%s does not apply: %s", a.flag, fmt.Sprintf(a.why, subject))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
