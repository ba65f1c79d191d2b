package main

import (
	"slices"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/drivers/pglock"
)

// compareBaselines are the rows `compare --baselines` adds beside the
// Redlock matrix, each measured on the same machine, workloads and
// durations: the etcd lock paths and the peer libraries.
var compareBaselines = map[string]func(*RunConfig){
	"etcd": func(c *RunConfig) {
		c.Driver.Backend, c.Driver.Etcd.Mode, c.Driver.Etcd.Wait = "etcd", etcdlock.ModeClient, false
	},
	"etcd-wait": func(c *RunConfig) {
		c.Driver.Backend, c.Driver.Etcd.Mode, c.Driver.Etcd.Wait = "etcd", etcdlock.ModeClient, true
	},
	"etcd-rpc": func(c *RunConfig) {
		c.Driver.Backend, c.Driver.Etcd.Mode, c.Driver.Etcd.Wait = "etcd", etcdlock.ModeRPC, false
	},
	"redsync":     func(c *RunConfig) { c.Driver.Backend = "redsync" },
	"rueidislock": func(c *RunConfig) { c.Driver.Backend = "rueidislock" },
	"redislock":   func(c *RunConfig) { c.Driver.Backend = "redislock" },
	"single":      func(c *RunConfig) { c.Driver.Backend, c.Driver.WaitReplicas = "single", 0 },
	"single-wait": func(c *RunConfig) { c.Driver.Backend, c.Driver.WaitReplicas = "single", 1 },
	"zookeeper":   func(c *RunConfig) { c.Driver.Backend, c.Driver.ZooKeeper.Wait = "zookeeper", false },
	"zookeeper-wait": func(c *RunConfig) {
		c.Driver.Backend, c.Driver.ZooKeeper.Wait = "zookeeper", true
	},
	"postgres": func(c *RunConfig) {
		c.Driver.Backend, c.Driver.Postgres.Mode, c.Driver.Postgres.Wait = "postgres", pglock.ModeSession, false
	},
	"postgres-xact": func(c *RunConfig) {
		c.Driver.Backend, c.Driver.Postgres.Mode, c.Driver.Postgres.Wait = "postgres", pglock.ModeXact, false
	},
}

func baselineNames() []string {
	out := make([]string, 0, len(compareBaselines))
	for n := range compareBaselines {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// withBaselines adds a cell per baseline × workload to each masters count's
// group of cells. When an etcd row is asked for, every cell's topology
// starts the etcd members too, so one topology per masters count serves
// the whole group.
func (cc *CompareConfig) withBaselines(cells []compareCell) ([]compareCell, error) {
	if len(cc.Baselines) == 1 && cc.Baselines[0] == "all" {
		cc.Baselines = baselineNames()
	}
	if dup := duplicate(cc.Baselines); dup != "" {
		return nil, usagef("--baselines %q: listed twice", dup)
	}
	for _, b := range cc.Baselines {
		if _, ok := compareBaselines[b]; !ok {
			return nil, usagef("--baselines %q: unknown (have all, %s)", b, strings.Join(baselineNames(), ", "))
		}
	}
	if len(cc.Baselines) == 0 {
		return cells, nil
	}
	var out []compareCell
	for i, c := range cells {
		out = append(out, c)
		if i+1 < len(cells) && cells[i+1].masters == c.masters {
			continue
		}
		// last cell of this masters count's group: its baselines follow
		for _, w := range cc.Workloads {
			for _, b := range cc.Baselines {
				cfg := c.cfg
				cfg.Workload.Workload = w
				cfg.Driver.Client, cfg.Driver.Mux = "", "" // not Redlock: no client × mux
				cfg.RTT = 0                                // baselines run direct
				compareBaselines[b](&cfg)
				if err := cfg.validate(); err != nil {
					return nil, err
				}
				out = append(out, compareCell{masters: c.masters, cfg: cfg})
			}
		}
	}
	needsEtcd := slices.ContainsFunc(out, func(c compareCell) bool { return c.cfg.Topology.NeedsEtcd })
	shareBackendServers(out)
	for i := range out {
		out[i].cfg.Topology.NeedsEtcd = out[i].cfg.Topology.NeedsEtcd || needsEtcd
		out[i].cfg.Topology.NoRedis = false // the group shares the Redis masters
	}
	return out, nil
}
