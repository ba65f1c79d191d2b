package lab_test

import (
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestServersFor: each backend's topology asks for the servers its
// descriptor names and for nothing else, whatever the spec asked before.
func TestServersFor(t *testing.T) {
	type needs struct{ redis, etcd, zk, pg, sentinel bool }
	want := map[string]needs{
		"redlock":     {redis: true},
		"redsync":     {redis: true},
		"rueidislock": {redis: true},
		"redislock":   {redis: true},
		"etcd":        {etcd: true},
		"zookeeper":   {zk: true},
		"postgres":    {pg: true},
		"single":      {sentinel: true},
	}
	for _, name := range backends.Names() {
		w, ok := want[name]
		if !ok {
			t.Errorf("backend %s: no expectation in this table", name)
			continue
		}
		b, _ := backends.Lookup(name)
		for _, before := range []compose.Spec{{}, {NoRedis: true, NeedsEtcd: true, NeedsZooKeeper: true, NeedsPostgres: true, NeedsSentinel: true}} {
			in := before
			in.Redis.Masters = 3
			got := lab.ServersFor(in, b)
			if g := (needs{!got.NoRedis, got.NeedsEtcd, got.NeedsZooKeeper, got.NeedsPostgres, got.NeedsSentinel}); g != w {
				t.Errorf("%s from %+v: needs %+v, want %+v", name, before, g, w)
			}
			if got.Redis.Masters != 3 || in.NeedsEtcd != before.NeedsEtcd {
				t.Errorf("%s: ServersFor changed more than the needs, or its argument", name)
			}
		}
	}
}

// TestMasters: how many of the lab's servers a cell's lock lives on, from
// each backend's descriptor.
func TestMasters(t *testing.T) {
	l := &lab.Lab{Topo: &compose.Topology{RedisAddrs: []string{"a:1", "b:1", "c:1", "d:1", "e:1"}, EtcdAddrs: []string{"a:2", "b:2", "c:2"},
		ZooKeeperAddrs: []string{"a:3", "b:3", "c:3"}, PostgresURL: "postgres://a:4"}}
	want := map[string]int{"redlock": 5, "redsync": 5, "rueidislock": 1, "redislock": 1, "etcd": 3, "zookeeper": 1, "postgres": 1, "single": 1}
	for _, name := range backends.Names() {
		if got, w := l.Masters(backends.Spec{Backend: name}), want[name]; got != w {
			t.Errorf("Masters(%s) = %d, want %d", name, got, w)
		}
	}
}
