package lab

import (
	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
)

// route makes at dial the delay line or the fault proxies in front of
// the etcd, ZooKeeper or PostgreSQL servers (openFaults puts the Redis
// masters' in masters).
func (fr *faultRun) route(at *backends.Endpoints) error {
	if fr == nil || len(fr.front) == 0 {
		return nil
	}
	addrs := fr.front
	switch fr.on {
	case faults.OnEtcd:
		at.Etcd = addrs
	case faults.OnZooKeeper:
		at.ZooKeeper = addrs
	case faults.OnPostgres:
		u, err := compose.PostgresURLVia(at.Postgres, addrs[0])
		if err != nil {
			return err
		}
		at.Postgres = u
	}
	return nil
}
