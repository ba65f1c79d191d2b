package compose

import (
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// ResolveExternal checks and completes the external servers s names,
// before anything starts: the Redis masters (parsed once, with their
// credentials from passwordFile or the environment: RedisMasters set,
// RedisAddrs left redacted), when needsEtcd the etcd cluster's endpoints
// and access (etcdconn.Resolve), and the ZooKeeper addresses. A spec
// resolved before keeps its masters.
//
// Bad input is a *fielderr.Error named by the field's JSON path in
// Spec ("redis_addrs", "redis_auth.tls.ca_cert", "etcd_addrs",
// "etcd_access.username", "zookeeper_addrs").
func (s *Spec) ResolveExternal(passwordFile string, needsEtcd bool) error {
	if len(s.RedisMasters) == 0 {
		masters, err := redisconn.Resolve(s.RedisAddrs, &s.RedisAuth, passwordFile)
		if err != nil {
			return err
		}
		if len(masters) > 0 {
			s.RedisMasters, s.RedisAddrs, s.Redis.Masters = masters, redisconn.Redacted(masters), len(masters)
		}
	}
	if needsEtcd {
		if err := etcdconn.Resolve(s.EtcdAddrs, &s.EtcdAccess, s.Etcd.Secure); err != nil {
			return err
		}
		if err := parseAddrs("etcd_addrs", &s.EtcdAddrs); err != nil {
			return err
		}
	}
	return parseAddrs("zookeeper_addrs", &s.ZooKeeperAddrs)
}

// parseAddrs replaces a non-empty *list by its checked form.
func parseAddrs(field string, list *[]string) error {
	if len(*list) == 0 {
		return nil
	}
	addrs, err := parseAddrList(field, *list)
	if err != nil {
		return err
	}
	*list = addrs
	return nil
}
