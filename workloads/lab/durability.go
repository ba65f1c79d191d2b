package lab

import (
	"fmt"

	"github.com/lockbench/lockbench/drivers/backends"
)

// durability says where a cell's lock state is kept, and so what a grant
// survives: results' "durability", the tables' column of it. masters is how
// many servers hold the state (Lab.Masters).
//
//	memory ×N, AOF 1s ×N, AOF always ×N   N Redis masters (--persistence none, everysec, always)
//	memory +replica                       single: a master and its asynchronous replica
//	fsync raft×N                          etcd: N members, each write fsynced by a quorum
//	fsync ×1                              ZooKeeper: one server, its transaction log fsynced
//	memory ×1                             PostgreSQL advisory locks: the server's memory, no WAL
//	external                              servers lockbench did not start: their settings are not known
func durability(c Config, masters int) string {
	b, _ := backends.Lookup(c.Driver.Backend)
	t := c.Topology
	switch b.On {
	case backends.Etcd:
		if len(t.EtcdAddrs) > 0 {
			return "external"
		}
		return fmt.Sprintf("fsync raft×%d", masters)
	case backends.ZooKeeper:
		if len(t.ZooKeeperAddrs) > 0 {
			return "external"
		}
		return "fsync ×1"
	case backends.Postgres:
		if t.PostgresURL != "" {
			return "external"
		}
		return "memory ×1"
	case backends.Sentinel:
		return "memory +replica" // always started by lockbench
	}
	if len(t.RedisAddrs) > 0 {
		return "external"
	}
	switch t.Redis.Persistence {
	case "everysec":
		return fmt.Sprintf("AOF 1s ×%d", masters)
	case "always":
		return fmt.Sprintf("AOF always ×%d", masters)
	}
	return fmt.Sprintf("memory ×%d", masters)
}
