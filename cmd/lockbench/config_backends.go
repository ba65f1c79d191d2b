package main

import (
	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/workloads/lab"
)

// bindBackends registers the zookeeper, postgres and single backends' flags.
func bindBackends(fs *pflag.FlagSet, c *RunConfig) {
	d := &c.Driver
	fs.StringSliceVar(&c.Topology.ZooKeeperAddrs, "zookeeper", nil, "external ZooKeeper servers host:port,... (default: start a local one)")
	fs.BoolVar(&d.ZooKeeper.Wait, "zk-wait", d.ZooKeeper.Wait, "zookeeper: one attempt waits in the queue (watching its predecessor) instead of TryLock")
	fs.DurationVar(&d.ZooKeeper.WaitTimeout, "zk-wait-timeout", d.ZooKeeper.WaitTimeout, "zookeeper: bound of one attempt; a waiting attempt that runs out counts as busy")
	fs.StringVar(&c.Topology.PostgresURL, "postgres", "", "external PostgreSQL connection URL (default: initdb and start a local server)")
	fs.StringVar(&d.Postgres.Mode, "pg-mode", d.Postgres.Mode, "postgres: session (pg_try_advisory_lock on a held connection) | xact (pg_try_advisory_xact_lock in a transaction)")
	fs.BoolVar(&d.Postgres.Wait, "pg-wait", d.Postgres.Wait, "postgres: one attempt waits (pg_advisory_lock) up to --pg-wait-timeout instead of trying once")
	fs.DurationVar(&d.Postgres.WaitTimeout, "pg-wait-timeout", d.Postgres.WaitTimeout, "postgres: lock_timeout of a waiting attempt; running out counts as busy")
	fs.IntVar(&d.WaitReplicas, "wait-replicas", d.WaitReplicas, "single: WAIT K replicas after the SET before a grant counts (0: no WAIT)")
	fs.DurationVar(&d.WaitTimeout, "wait-timeout", d.WaitTimeout, "single: WAIT's timeout")
}

// validateBackends marks the servers the backend needs and checks their
// flags.
func (c *RunConfig) validateBackends(b backends.Backend) error {
	t := &c.Topology
	t.NeedsZooKeeper, t.NeedsPostgres, t.NeedsSentinel = b.NeedsZooKeeper, b.NeedsPostgres, b.NeedsSentinel
	if len(t.ZooKeeperAddrs) > 0 {
		addrs, err := compose.ParseAddrs("zookeeper", t.ZooKeeperAddrs)
		if err != nil {
			return usageError{err}
		}
		t.ZooKeeperAddrs = addrs
	}
	return nil
}

// shareBackendServers makes every cell of a compare group start the
// ZooKeeper, PostgreSQL and Sentinel servers any of its cells needs, so one
// topology serves the whole group (as withBaselines does for etcd).
func shareBackendServers(cells []compareCell) {
	var zk, pg, sen bool
	for _, c := range cells {
		t := c.cfg.Topology
		zk, pg, sen = zk || t.NeedsZooKeeper, pg || t.NeedsPostgres, sen || t.NeedsSentinel
	}
	for i := range cells {
		t := &cells[i].cfg.Topology
		t.NeedsZooKeeper, t.NeedsPostgres, t.NeedsSentinel = zk, pg, sen
	}
}

// faultServers is how many servers a --fault's masters=… may name and
// whether lockbench starts them: the Redis masters, the etcd members, the
// ZooKeeper or PostgreSQL server, or for the single backend its master (1)
// and replica (2), for kill and stop only (its client dials the Sentinel,
// not a proxy).
func (c *RunConfig) faultServers(f faults.Fault) (n int, local bool, err error) {
	on := lab.FaultsOn(c.Driver.Backend)
	if err := faults.Applies(f, on); err != nil {
		return 0, false, usageError{err}
	}
	n, local = faults.Count(c.Topology, on)
	return n, local, nil
}
