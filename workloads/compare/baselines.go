package compare

import (
	"maps"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/drivers/pglock"
	"github.com/lockbench/lockbench/workloads/lab"
)

// baselines are the rows Baselines adds beside the Redlock matrix, each
// measured on the same machine, workloads and durations: the etcd lock
// paths, the peer libraries, a single Redis and the other stores.
var baselines = map[string]func(*lab.Config){
	"etcd": func(c *lab.Config) {
		c.Driver.Backend, c.Driver.Etcd.Mode, c.Driver.Etcd.Wait = "etcd", etcdlock.ModeClient, false
	},
	"etcd-wait": func(c *lab.Config) {
		c.Driver.Backend, c.Driver.Etcd.Mode, c.Driver.Etcd.Wait = "etcd", etcdlock.ModeClient, true
	},
	"etcd-rpc": func(c *lab.Config) {
		c.Driver.Backend, c.Driver.Etcd.Mode, c.Driver.Etcd.Wait = "etcd", etcdlock.ModeRPC, false
	},
	"redsync":     func(c *lab.Config) { c.Driver.Backend = "redsync" },
	"rueidislock": func(c *lab.Config) { c.Driver.Backend = "rueidislock" },
	"redislock":   func(c *lab.Config) { c.Driver.Backend = "redislock" },
	"single":      func(c *lab.Config) { c.Driver.Backend, c.Driver.WaitReplicas = "single", 0 },
	"single-wait": func(c *lab.Config) { c.Driver.Backend, c.Driver.WaitReplicas = "single", 1 },
	"zookeeper":   func(c *lab.Config) { c.Driver.Backend, c.Driver.ZooKeeper.Wait = "zookeeper", false },
	"zookeeper-wait": func(c *lab.Config) {
		c.Driver.Backend, c.Driver.ZooKeeper.Wait = "zookeeper", true
	},
	"postgres": func(c *lab.Config) {
		c.Driver.Backend, c.Driver.Postgres.Mode, c.Driver.Postgres.Wait = "postgres", pglock.ModeSession, false
	},
	"postgres-xact": func(c *lab.Config) {
		c.Driver.Backend, c.Driver.Postgres.Mode, c.Driver.Postgres.Wait = "postgres", pglock.ModeXact, false
	},
}

// BaselineNames are the rows Config.Baselines may name, sorted.
func BaselineNames() []string { return slices.Sorted(maps.Keys(baselines)) }

// withBaselines adds a cell per baseline × workload after each masters
// count's group of cells, and makes every cell of a group start the
// servers any of them needs, so one topology serves the whole group.
// Baselines ["all"] becomes every baseline.
func (cfg *Config) withBaselines(cells []Cell) ([]Cell, error) {
	if len(cfg.Baselines) == 1 && cfg.Baselines[0] == "all" {
		cfg.Baselines = BaselineNames()
	}
	if dup := duplicate(cfg.Baselines); dup != "" {
		return nil, fieldErr("Baselines", dup, "listed twice")
	}
	for _, b := range cfg.Baselines {
		if _, ok := baselines[b]; !ok {
			return nil, fieldErr("Baselines", b, "unknown (have all, %s)", strings.Join(BaselineNames(), ", "))
		}
	}
	if len(cfg.Baselines) == 0 {
		return cells, nil
	}
	var out []Cell
	for i, c := range cells {
		out = append(out, c)
		if i+1 < len(cells) && cells[i+1].Masters == c.Masters {
			continue
		}
		// last cell of this masters count's group: its baselines follow
		for _, w := range cfg.Workloads {
			for _, b := range cfg.Baselines {
				cell := c.Config
				cell.Workload.Workload = w
				cell.Driver.Client, cell.Driver.Mux = "", ""            // not Redlock: no client × mux
				cell.RTT, cell.RTTJitter, cell.RTTPerMaster = 0, 0, nil // baselines run direct
				baselines[b](&cell)
				if err := cfg.prepare(&cell, false); err != nil {
					return nil, err
				}
				out = append(out, Cell{Masters: c.Masters, Config: cell})
			}
		}
	}
	shareServers(out)
	return out, nil
}
