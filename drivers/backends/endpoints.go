package backends

import (
	"crypto/tls"

	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/drivers/redisconn"
)

// Endpoints are the servers a Locker is opened on, with how to reach them:
// the lab builds them from its topology and passes them to Open. Each
// backend reads the fields of the kind it locks on (Backend.On).
type Endpoints struct {
	// Masters are the Redis masters with their credentials.
	Masters []redisconn.Endpoint
	// Etcd are the etcd members' client addresses; EtcdAccess is their TLS
	// and user.
	Etcd       []string
	EtcdAccess etcdconn.Access
	// ZooKeeper are the ZooKeeper servers; ZooKeeperDigest (user:password)
	// and ZooKeeperTLS are how a client reaches a local one.
	ZooKeeper       []string
	ZooKeeperDigest string
	ZooKeeperTLS    *tls.Config
	// Postgres is the PostgreSQL server's connection URL.
	Postgres string
	// Sentinel finds the single backend's master.
	Sentinel redisconn.Sentinel
}
