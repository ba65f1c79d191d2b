package faults

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/compose"
)

func TestCountAndApplies(t *testing.T) {
	spec := compose.Spec{Redis: compose.RedisOptions{Masters: 5}, Etcd: compose.EtcdOptions{Members: 3}}
	ext := compose.Spec{RedisAddrs: []string{"a:1", "b:1"}, EtcdAddrs: []string{"a:2"}, ZooKeeperAddrs: []string{"a:3", "b:3", "c:3"}, PostgresURL: "postgres://a:4/x"}
	for _, c := range []struct {
		on        string
		spec      compose.Spec
		n         int
		local     bool
		fault     string
		refusedBy string // "" when the fault applies
	}{
		{OnRedis, spec, 5, true, "clock-jump:masters=1:+1s", ""},
		{OnRedis, ext, 2, false, "partition:masters=1", ""},
		{OnEtcd, spec, 3, true, "kill:masters=1,2", ""},
		{OnEtcd, ext, 1, false, "clock-jump:masters=1:+1s", "Redis masters only"},
		{OnZooKeeper, spec, 1, true, "stop:masters=1:for=1s", ""},
		{OnZooKeeper, ext, 3, false, "latency:masters=1:ms=5", ""},
		{OnPostgres, spec, 1, true, "kill:masters=1", ""},
		{OnPostgres, ext, 1, false, "pause-client:workers=1:for=1s", ""},
		{OnSentinel, spec, 2, true, "stop:masters=2:for=1s", ""},
		{OnSentinel, spec, 2, true, "reset:masters=1", "only kill and stop"},
	} {
		n, local := Count(c.spec, c.on)
		if n != c.n || local != c.local {
			t.Errorf("Count(%s): %d, %t; want %d, %t", c.on, n, local, c.n, c.local)
		}
		f, err := parse(c.fault)
		if err != nil {
			t.Fatal(err)
		}
		err = Applies(f, c.on)
		if (err == nil) != (c.refusedBy == "") || (err != nil && !strings.Contains(err.Error(), c.refusedBy)) {
			t.Errorf("Applies(%s, %s) = %v, want refusal %q", c.fault, c.on, err, c.refusedBy)
		}
	}
}
