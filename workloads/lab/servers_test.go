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
