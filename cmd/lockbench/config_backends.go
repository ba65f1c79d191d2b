package main

import "github.com/spf13/pflag"

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
