package lab

import (
	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// ServersFor is t asking for the servers backend b locks on (b.On), and
// no others: a pure function of the descriptor, the one place a backend's
// needs become compose's Needs* and NoRedis. Config.Validate applies it.
func ServersFor(t compose.Spec, b backends.Backend) compose.Spec {
	t.NoRedis = !b.Uses(backends.Redis)
	t.NeedsEtcd = b.Uses(backends.Etcd)
	t.NeedsZooKeeper = b.Uses(backends.ZooKeeper)
	t.NeedsPostgres = b.Uses(backends.Postgres)
	t.NeedsSentinel = b.Uses(backends.Sentinel)
	return t
}

// Endpoints are the lab's servers as a backend opens on them: the Redis
// masters, the etcd members and the ZooKeeper, PostgreSQL and Sentinel
// servers.
func (l *Lab) Endpoints() backends.Endpoints {
	topo := l.Topo
	at := backends.Endpoints{Masters: topo.Masters, Etcd: topo.EtcdAddrs, EtcdAccess: topo.EtcdAccess,
		ZooKeeper: topo.ZooKeeperAddrs, ZooKeeperDigest: topo.ZooKeeperDigest, ZooKeeperTLS: topo.ZooKeeperTLS,
		Postgres: topo.PostgresURL}
	if topo.Sentinel != nil {
		at.Sentinel = redisconn.Sentinel{MasterName: compose.SentinelMaster, Sentinels: topo.Sentinel.Addrs(), Password: topo.Sentinel.Password}
	}
	return at
}

// Masters is how many servers a cell's lock lives on: of the lab's servers
// of the kind the backend locks on, as many as its descriptor says (the
// etcd members, all Redis masters for Redlock, the first one for a
// single-master library, one ZooKeeper, PostgreSQL or Sentinel master).
func (l *Lab) Masters(spec backends.Spec) int {
	b, _ := backends.Lookup(spec.Backend)
	return b.LockServers(l.count(b.On))
}

// count is how many servers of kind k the lab has.
func (l *Lab) count(k backends.Server) int {
	topo := l.Topo
	switch k {
	case backends.Redis:
		return len(topo.RedisAddrs)
	case backends.Etcd:
		return len(topo.EtcdAddrs)
	}
	return 1 // one ZooKeeper service, PostgreSQL server or Sentinel master
}

// faultTargets is which servers --fault masters=N numbers, per kind a
// backend locks on.
var faultTargets = map[backends.Server]string{
	backends.Redis:     faults.OnRedis,
	backends.Etcd:      faults.OnEtcd,
	backends.ZooKeeper: faults.OnZooKeeper,
	backends.Postgres:  faults.OnPostgres,
	backends.Sentinel:  faults.OnSentinel,
}

// faultsOn is which servers a backend's --fault masters=N names.
func faultsOn(backend string) string {
	b, _ := backends.Lookup(backend)
	return faultTargets[b.On]
}
