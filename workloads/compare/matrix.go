package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/lab"
)

// Cell is one cell of the matrix and the masters count of the topology it
// runs on: consecutive cells with the same count share one lab.
type Cell struct {
	Masters int
	Config  lab.Config
}

// Plan is a checked matrix: the config with its defaults filled in (and
// "all" baselines, external masters resolved), and its cells in the order
// they run.
type Plan struct {
	Config Config
	Cells  []Cell
}

// NewPlan expands cfg's matrix and checks every cell before any server
// starts. Errors in a list are *FieldError naming the field.
func NewPlan(cfg Config) (*Plan, error) {
	cfg.defaults()
	for field, list := range map[string][]string{"Clients": cfg.Clients, "Muxes": cfg.Muxes, "Workloads": cfg.Workloads} {
		if len(list) == 0 {
			return nil, fieldErr(field, nil, "is empty")
		}
		if dup := duplicate(list); dup != "" {
			return nil, fieldErr(field, dup, "listed twice")
		}
	}
	if err := checkMasters(cfg); err != nil {
		return nil, err
	}
	if b, ok := backends.Lookup(cfg.Base.Driver.Backend); ok && len(b.Muxes) == 0 {
		// Its cells would differ only in names that change nothing.
		return nil, &fielderr.Error{Field: "Base.Driver.Backend", Value: b.Name,
			Err: fmt.Errorf("a compare varies clients and muxes, which %s has not; measure it as one cell per workload", b.Name)}
	}
	if cfg.Repeat < 1 || cfg.Repeat > MaxRepeat {
		return nil, fieldErr("Repeat", cfg.Repeat, "must be 1 to %d", MaxRepeat)
	}
	rtts, err := cfg.rtts()
	if err != nil {
		return nil, err
	}
	var cells []Cell
	for _, m := range cfg.Masters {
		for _, rtt := range rtts {
			for _, w := range cfg.Workloads {
				for _, c := range cfg.Clients {
					for _, x := range cfg.Muxes {
						cell := cfg.Base
						cell.Topology.Redis.Masters = m
						cell.Driver.Client, cell.Driver.Mux, cell.Workload.Workload = c, x, w
						cell.RTT, cell.RTTJitter = rtt.RTT, rtt.Jitter
						if err := cfg.prepare(&cell, true); err != nil {
							return nil, err
						}
						cells = append(cells, Cell{Masters: cell.Topology.Redis.Masters, Config: cell})
						if x == "auto" && cfg.ClientDefaults {
							cell.Driver.Tuning.LibraryDefaults = true
							cells = append(cells, Cell{Masters: cell.Topology.Redis.Masters, Config: cell})
						}
					}
				}
			}
		}
	}
	if cells, err = cfg.withBaselines(cells); err != nil {
		return nil, err
	}
	if len(cfg.Base.Topology.RedisAddrs) > 0 {
		t := cells[0].Config.Topology
		cfg.Masters = []int{cells[0].Masters}
		cfg.Base.Topology.RedisAddrs, cfg.Base.Topology.RedisMasters = t.RedisAddrs, t.RedisMasters
	}
	return &Plan{Config: cfg, Cells: cells}, nil
}

// checkMasters: counts from 1 to redlock.MaxMasters, each once; with
// external masters only their own count.
func checkMasters(cfg Config) error {
	if len(cfg.Masters) == 0 {
		return fieldErr("Masters", nil, "is empty")
	}
	if len(cfg.Base.Topology.RedisAddrs) > 0 && len(cfg.Masters) > 1 {
		return fieldErr("Masters", nil, "is not for external masters (Base.Topology.RedisAddrs are the topology)")
	}
	seen := map[int]bool{}
	for _, m := range cfg.Masters {
		switch {
		case m < 1 || m > redlock.MaxMasters:
			return fieldErr("Masters", m, "must be 1 to %d", redlock.MaxMasters)
		case seen[m]:
			return fieldErr("Masters", m, "listed twice")
		}
		seen[m] = true
	}
	return nil
}

// prepare marks the servers cell's backend needs, checks the names the
// matrix set (matrix: client and mux come from Clients and Muxes) and
// hands the cell to cfg.Check, or else to the drivers' and workloads' own
// validation.
func (cfg Config) prepare(cell *lab.Config, matrix bool) error {
	d := cell.Driver
	b, ok := backends.Lookup(d.Backend)
	if !ok {
		return fieldErr("Base.Driver.Backend", d.Backend, "unknown (have %s)", strings.Join(backends.Names(), ", "))
	}
	if matrix && len(b.Clients) > 0 && !slices.Contains(b.Clients, d.Client) {
		return fieldErr("Clients", d.Client, "unknown for backend %s (have %s)", d.Backend, strings.Join(b.Clients, ", "))
	}
	if matrix && len(b.Muxes) > 0 && !slices.Contains(b.Muxes, d.Mux) {
		return fieldErr("Muxes", d.Mux, "unknown for backend %s (have %s)", d.Backend, strings.Join(b.Muxes, ", "))
	}
	if _, ok := workloads.Generators()[cell.Workload.Workload]; !ok {
		return fieldErr("Workloads", cell.Workload.Workload, "unknown (have %s)", strings.Join(slices.Sorted(maps.Keys(workloads.Generators())), ", "))
	}
	cell.Topology = lab.ServersFor(cell.Topology, b)
	t := &cell.Topology
	if t.NeedsEtcd && len(t.EtcdAddrs) == 0 && !compose.ValidEtcdMembers(t.Etcd.Members) {
		return fieldErr("Base.Topology.Etcd.Members", t.Etcd.Members, "want 1, 3 or 5")
	}
	if cfg.Check != nil {
		return cfg.Check(cell)
	}
	if err := d.Validate(); err != nil {
		return fmt.Errorf("compare: %s: %w", cell.Name(), err)
	}
	if err := cell.Workload.Validate(); err != nil {
		return fmt.Errorf("compare: %s: %w", cell.Name(), err)
	}
	if len(t.RedisAddrs) > 0 && len(t.RedisMasters) == 0 {
		// external masters: parsed once, only redacted entries left where
		// the summary shows them
		masters, err := redisconn.Parse(t.RedisAddrs, t.RedisAuth)
		if err != nil {
			return &fieldError{Field: "Base.Topology.RedisAddrs", Err: err}
		}
		t.RedisMasters, t.RedisAddrs = masters, redisconn.Redacted(masters)
	}
	if n := len(t.RedisMasters); n > 0 {
		t.Redis.Masters = n
	}
	return nil
}

// shareServers makes every cell of a group start the etcd,
// ZooKeeper, PostgreSQL and Sentinel servers any of its cells needs, and
// the Redis masters, so one topology serves the whole group.
func shareServers(cells []Cell) {
	var etcd, zk, pg, sen bool
	for _, c := range cells {
		t := c.Config.Topology
		etcd, zk, pg, sen = etcd || t.NeedsEtcd, zk || t.NeedsZooKeeper, pg || t.NeedsPostgres, sen || t.NeedsSentinel
	}
	for i := range cells {
		t := &cells[i].Config.Topology
		t.NeedsEtcd, t.NeedsZooKeeper, t.NeedsPostgres, t.NeedsSentinel = etcd, zk, pg, sen
		t.NoRedis = false // the group shares the Redis masters
	}
}

// rtts is the list of added round trips the matrix runs at: RTTs, or just
// direct.
func (cfg Config) rtts() (distances, error) {
	if len(cfg.RTTs) == 0 {
		return distances{{}}, nil
	}
	seen := map[time.Duration]bool{}
	for _, d := range cfg.RTTs {
		switch err := d.Check(); {
		case err != nil:
			return nil, fieldErr("RTTs", d, "%v", err)
		case d.RTT > 0 && d.RTT < time.Microsecond:
			return nil, fieldErr("RTTs", d, "below the delay line's 1µs resolution")
		case seen[d.RTT]:
			return nil, fieldErr("RTTs", d, "listed twice")
		case d.RTT+d.Jitter >= cfg.Base.Driver.Redlock.NodeTimeout:
			return nil, fieldErr("RTTs", d, "reaches the node timeout %v: every command would time out", cfg.Base.Driver.Redlock.NodeTimeout)
		}
		seen[d.RTT] = true
	}
	return cfg.RTTs, nil
}

func duplicate(list []string) string {
	seen := map[string]bool{}
	for _, s := range list {
		if seen[s] {
			return s
		}
		seen[s] = true
	}
	return ""
}

// CheckGiven refuses a field given (a JSON path of a cell's config) that
// applies to none of p's cells (lab.Config.CheckGiven): a client's tuning
// applies when some cell runs that client.
func (p *Plan) CheckGiven(given []string) error {
	for _, field := range given {
		var err error
		for _, c := range p.Cells {
			if err = c.Config.CheckGiven([]string{field}); err == nil {
				break
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}
