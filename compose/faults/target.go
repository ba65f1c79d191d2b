package faults

import (
	"context"
	"fmt"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/internal/clockshift"
)

// server is one local server process a fault crashes, restarts, stops and
// resumes: a Redis master, an etcd member, the ZooKeeper or the PostgreSQL
// server. Start restarts it after Kill (same port, same data) and returns
// once it serves.
type server interface {
	Kill() error
	Start(ctx context.Context) error
	Pause() error
	Resume() error
}

// clocked is a server run under clockshift (a Redis master): clock-jump,
// clock-drift.
type clocked interface{ Clock() *clockshift.Clock }

// What --fault masters=N names, per backend: the servers its client dials.
const (
	OnRedis     = "redis"     // the Redis masters (redlock and the Redis peers)
	OnSentinel  = "sentinel"  // the single backend: 1 master, 2 replica
	OnEtcd      = "etcd"      // the etcd members
	OnZooKeeper = "zookeeper" // the ZooKeeper servers
	OnPostgres  = "postgres"  // the PostgreSQL server
)

// Count is how many servers a --fault may name when the run's faults are
// on on, and whether lockbench starts them itself (process faults need
// that); spec is the topology the run will have.
func Count(spec compose.Spec, on string) (n int, local bool) {
	switch on {
	case OnSentinel:
		return 2, true
	case OnEtcd:
		if len(spec.EtcdAddrs) > 0 {
			return len(spec.EtcdAddrs), false
		}
		return spec.Etcd.Members, true
	case OnZooKeeper:
		if len(spec.ZooKeeperAddrs) > 0 {
			return len(spec.ZooKeeperAddrs), false
		}
		return 1, true
	case OnPostgres:
		return 1, spec.PostgresURL == ""
	}
	if len(spec.RedisAddrs) > 0 {
		return len(spec.RedisAddrs), false
	}
	return spec.Redis.Masters, true
}

// Applies checks that f can be played on on's servers: clock jumps need
// masters under clockshift (Redis only); the single backend's client
// finds its master through the Sentinel, so no proxy stands in front of it.
func Applies(f Fault, on string) error {
	switch {
	case f.ClientSide():
	case f.clock() && on != OnRedis:
		return fmt.Errorf("fault %q: %s applies to Redis masters only, not to %s", f.Spec, f.Kind, on)
	case on == OnSentinel && f.Kind != kindKill && f.Kind != stop:
		return fmt.Errorf("fault %q: the single backend dials the Sentinel, not a proxy: only kill and stop apply", f.Spec)
	}
	return nil
}

// Pick is topo's servers the faults of a run on on play against (nil when
// they are external) and the addresses their clients dial, in the same
// order: what a proxy stands in front of.
func Pick(topo *compose.Topology, on string) (servers []server, addrs []string, err error) {
	switch on {
	case OnSentinel:
		if topo.Sentinel != nil {
			servers = asServers(topo.Sentinel.Servers())
		}
		return servers, nil, nil
	case OnEtcd:
		if topo.Etcd != nil {
			for _, m := range topo.Etcd.Members {
				servers = append(servers, m)
			}
		}
		return servers, topo.EtcdAddrs, nil
	case OnZooKeeper:
		if topo.ZooKeeper != nil {
			servers = []server{topo.ZooKeeper}
		}
		return servers, topo.ZooKeeperAddrs, nil
	case OnPostgres:
		if topo.Postgres != nil {
			servers = []server{topo.Postgres}
		}
		if topo.PostgresURL == "" {
			return servers, nil, nil
		}
		a, err := compose.PostgresHostPort(topo.PostgresURL)
		if err != nil {
			return nil, nil, err
		}
		return servers, []string{a}, nil
	}
	if topo.Redis != nil {
		servers = asServers(topo.Redis.Servers)
	}
	return servers, topo.RedisAddrs, nil
}

func asServers(rs []*compose.RedisServer) []server {
	out := make([]server, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}
