package lab

import (
	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
)

// faultsOn is which servers a backend's --fault masters=N names.
func faultsOn(backend string) string {
	b, _ := backends.Lookup(backend)
	switch {
	case b.NeedsSentinel:
		return faults.OnSentinel
	case b.NeedsEtcd:
		return faults.OnEtcd
	case b.NeedsZooKeeper:
		return faults.OnZooKeeper
	case b.NeedsPostgres:
		return faults.OnPostgres
	}
	return faults.OnRedis
}

// route makes spec dial the delay line or the fault proxies in front of
// the etcd, ZooKeeper or PostgreSQL servers (openFaults puts the Redis
// masters' in masters).
func (fr *faultRun) route(spec *backends.Spec) error {
	if fr == nil || len(fr.front) == 0 {
		return nil
	}
	addrs := fr.front
	switch fr.on {
	case faults.OnEtcd:
		spec.EtcdAddrs = addrs
	case faults.OnZooKeeper:
		spec.ZooKeeperAddrs = addrs
	case faults.OnPostgres:
		u, err := compose.PostgresURLVia(spec.PostgresURL, addrs[0])
		if err != nil {
			return err
		}
		spec.PostgresURL = u
	}
	return nil
}
