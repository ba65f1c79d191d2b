package compose_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results/fielderr"
)

// TestUnreachableNamesField: an external server that does not answer is
// bad input in the topology field that gave it, named as a config field
// (the CLI alone names flags), and still compose.ErrUnreachable.
func TestUnreachableNamesField(t *testing.T) {
	for _, tc := range []struct {
		field string
		spec  compose.Spec
	}{
		{"redis_addrs", compose.Spec{RedisAddrs: []string{"127.0.0.1:1"}}},
		{"etcd_addrs", compose.Spec{NoRedis: true, NeedsEtcd: true, EtcdAddrs: []string{"127.0.0.1:1"}}},
		{"zookeeper_addrs", compose.Spec{NoRedis: true, NeedsZooKeeper: true, ZooKeeperAddrs: []string{"127.0.0.1:1"}}},
		{"postgres_url", compose.Spec{NoRedis: true, NeedsPostgres: true, PostgresURL: "postgres://u@127.0.0.1:1/db"}},
	} {
		t.Run(tc.field, func(t *testing.T) {
			if err := tc.spec.ResolveExternal("", tc.spec.NeedsEtcd); err != nil {
				t.Fatal(err)
			}
			topo, err := compose.Up(context.Background(), tc.spec)
			if err == nil {
				topo.Close()
				t.Fatal("no error")
			}
			var fe *fielderr.Error
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Fatalf("%v: want a field error in %s", err, tc.field)
			}
			if !errors.Is(err, compose.ErrUnreachable) {
				t.Errorf("%v: not ErrUnreachable", err)
			}
			if strings.Contains(err.Error(), "--") {
				t.Errorf("%v: a library error names a flag", err)
			}
		})
	}
}
