package compose_test

import (
	"errors"
	"testing"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/fielderr"
)

// TestResolveExternal: external servers are checked and completed before
// anything starts, every refusal naming its Spec field.
func TestResolveExternal(t *testing.T) {
	cases := []struct {
		name      string
		spec      compose.Spec
		needsEtcd bool
		field     string // "" for success
		check     func(t *testing.T, s compose.Spec)
	}{
		{name: "local servers", spec: compose.Spec{Redis: compose.RedisOptions{Masters: 3}}, check: func(t *testing.T, s compose.Spec) {
			if s.Redis.Masters != 3 || len(s.RedisMasters) != 0 {
				t.Errorf("spec %+v", s)
			}
		}},
		{name: "redis masters", spec: compose.Spec{RedisAddrs: []string{"redis://u:pw@h:1", "h:2"}}, check: func(t *testing.T, s compose.Spec) {
			if s.Redis.Masters != 2 || len(s.RedisMasters) != 2 || s.RedisAddrs[0] != "redis://u:"+redisconn.Mask+"@h:1" {
				t.Errorf("masters %d %v, addrs %q", s.Redis.Masters, s.RedisMasters, s.RedisAddrs)
			}
		}},
		{name: "resolved before", spec: compose.Spec{RedisAddrs: []string{"bad"}, RedisMasters: []redisconn.Endpoint{{Addr: "h:1"}}}},
		{name: "bad master", spec: compose.Spec{RedisAddrs: []string{"h"}}, field: "redis_addrs"},
		{name: "tls without masters", spec: compose.Spec{RedisAuth: redisconn.Auth{TLS: redisconn.TLSFiles{Cert: "c"}}}, field: "redis_auth.tls"},
		{name: "etcd https", spec: compose.Spec{EtcdAddrs: []string{"https://h:1", "h:2/"}}, needsEtcd: true, check: func(t *testing.T, s compose.Spec) {
			if !s.EtcdAccess.TLS || s.EtcdAddrs[0] != "h:1" || s.EtcdAddrs[1] != "h:2" {
				t.Errorf("etcd %q %+v", s.EtcdAddrs, s.EtcdAccess)
			}
		}},
		{name: "etcd not needed", spec: compose.Spec{EtcdAddrs: []string{"bad"}}},
		{name: "etcd twice", spec: compose.Spec{EtcdAddrs: []string{"h:1", "http://h:1"}}, needsEtcd: true, field: "etcd_addrs"},
		{name: "etcd user without password", spec: compose.Spec{EtcdAddrs: []string{"h:1"}, EtcdAccess: etcdconn.Access{Username: "u"}}, needsEtcd: true, field: "etcd_access.username"},
		{name: "zookeeper bad port", spec: compose.Spec{ZooKeeperAddrs: []string{"h:0"}}, field: "zookeeper_addrs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(redisconn.EnvPassword, "")
			t.Setenv(redisconn.EnvUser, "")
			t.Setenv(etcdconn.EnvPassword, "")
			s := c.spec
			err := s.ResolveExternal("", c.needsEtcd)
			if c.field != "" {
				var fe *fielderr.Error
				if !errors.As(err, &fe) || fe.Field != c.field {
					t.Fatalf("error %v, want a field error of %s", err, c.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				c.check(t, s)
			}
		})
	}
}
