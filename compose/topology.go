// Package compose is the topology under test: local redis-server masters (and
// etcd members) that lockbench starts and always stops, or external servers
// it dials. Labs bigger than one machine live beside it as compose and
// Kubernetes files. StartRedis and the other Start functions are also what
// tests and library users start servers with.
package compose

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/schema"
)

// Spec says which servers a run needs. It serialises into results.
type Spec struct {
	Redis RedisOptions `json:"redis"`
	// RedisAddrs are external masters as given to --redis, redacted once
	// parsed (config.json shows them); RedisMasters are the same masters
	// with their credentials. When set, nothing is started.
	RedisAddrs   redisconn.URLs       `json:"redis_addrs,omitempty" flag:"redis" help:"external Redis masters, comma-separated: host:port, redis://[user[:password]@]host:port[/db] or rediss://… (TLS); a password is better given by LOCKBENCH_REDIS_PASSWORD or --redis-password-file (default: start --masters local redis-server processes)" applies:"redis"`
	RedisMasters []redisconn.Endpoint `json:"-"`
	// RedisAuth is what --redis entries without their own take (user,
	// password, TLS files); the password is never serialised.
	RedisAuth redisconn.Auth `json:"redis_auth"`
	// NoRedis: the backend needs no Redis masters.
	NoRedis bool `json:"-"`
	// Etcd is the local etcd cluster to start when the backend needs one.
	Etcd EtcdOptions `json:"etcd"`
	// EtcdAddrs are an external etcd cluster's members; when set, nothing is started.
	EtcdAddrs []string `json:"etcd_addrs,omitempty" flag:"etcd" help:"external etcd cluster host:port or https://host:port,... (default: start --etcd-members local members)" applies:"etcd"`
	// EtcdAccess is TLS and the user for EtcdAddrs (--etcd-*).
	EtcdAccess etcdconn.Access `json:"etcd_access" flag:"etcd-user/etcd-cacert/etcd-cert/etcd-key"`
	// NeedsEtcd: the backend locks in etcd (see etcd.go).
	NeedsEtcd bool `json:"-"`
	// ZooKeeper is the local server to start when the backend needs one;
	// ZooKeeperAddrs an external ensemble instead (zookeeper.go).
	ZooKeeper      ZooKeeperOptions `json:"zookeeper"`
	ZooKeeperAddrs []string         `json:"zookeeper_addrs,omitempty" flag:"zookeeper" help:"external ZooKeeper servers host:port,... (default: start a local one)" applies:"zookeeper"`
	NeedsZooKeeper bool             `json:"-"`
	// Postgres is the local server to start when the backend needs one;
	// PostgresURL an external one instead (postgres.go).
	Postgres      PostgresOptions `json:"postgres"`
	PostgresURL   string          `json:"-" flag:"postgres" help:"external PostgreSQL connection URL (default: initdb and start a local server)" applies:"postgres"`
	NeedsPostgres bool            `json:"-"`
	// Sentinel is the master + replica + redis-sentinel topology of the
	// single-instance backend (sentinel.go).
	Sentinel      SentinelOptions `json:"sentinel"`
	NeedsSentinel bool            `json:"-"`
}

// ErrUnreachable: an external server given by flag does not answer.
var ErrUnreachable = errors.New("unreachable")

// ErrSameServer: two masters given by flag are one server reached by two
// addresses (127.0.0.1:P and localhost:P): Redlock's masters must be
// independent, and one server answering for two would hold two votes.
var ErrSameServer = errors.New("not independent masters")

// Topology is the servers of one run.
type Topology struct {
	// RedisAddrs are the masters' host:port, local or external, in order.
	RedisAddrs []string
	// Masters are how to reach them (credentials, TLS), in the same order.
	Masters []redisconn.Endpoint
	// Servers are the servers' own facts, read at start.
	Servers []schema.Server
	// Redis is set when the masters are local (for faults and tests).
	Redis *Redis
	// EtcdAddrs are the etcd members' client addresses, local or external.
	EtcdAddrs []string
	// EtcdAccess is how to reach them (TLS, user), local or external.
	EtcdAccess etcdconn.Access
	// Etcd is set when the members are local.
	Etcd *Etcd
	// ZooKeeperAddrs are the ZooKeeper servers; ZooKeeper is set when local.
	ZooKeeperAddrs []string
	ZooKeeper      *ZooKeeper
	// ZooKeeperDigest is the digest credentials (user:password) of a local
	// server, "" for an external one.
	ZooKeeperDigest string
	// ZooKeeperTLS is how a client reaches a local server (mutual TLS),
	// nil for an external one.
	ZooKeeperTLS *tls.Config
	// PostgresURL is the PostgreSQL server; Postgres is set when local.
	PostgresURL string
	Postgres    *Postgres
	// Sentinel is the single-instance failover topology, when asked for.
	Sentinel *Sentinel

	closers []io.Closer
}

// Up starts or dials what spec asks for. Every server it started is stopped
// by Close, also when Up itself fails half-way. External masters given as
// RedisAddrs are dialed whether or not ResolveExternal ran first (the
// credentials then come from the URLs and the environment): a spec that
// names masters never gets local ones instead.
func Up(ctx context.Context, spec Spec) (_ *Topology, err error) {
	if !spec.NoRedis && len(spec.RedisMasters) == 0 && len(spec.RedisAddrs) > 0 {
		if err := spec.ResolveExternal("", false); err != nil {
			return nil, err
		}
	}
	t := &Topology{}
	defer func() {
		if err != nil {
			_ = t.Close()
		}
	}()
	if !spec.NoRedis {
		if len(spec.RedisMasters) > 0 {
			t.Masters = spec.RedisMasters
		} else {
			r, err := StartRedis(ctx, spec.Redis)
			if err != nil {
				return nil, err
			}
			t.Redis = r
			t.closers = append(t.closers, r)
			t.Masters = r.Endpoints()
		}
		t.RedisAddrs = redisconn.Addrs(t.Masters)
		ids := map[string]int{} // run_id → master index: masters are servers, not addresses
		for i, e := range t.Masters {
			s, id, err := checkMasterRunID(ctx, e)
			if err != nil {
				return nil, err
			}
			if j, dup := ids[id]; dup && id != "" {
				return nil, fielderr.Invalid("redis_addrs", e.String(), "%w: %s and %s reach the same redis-server (run_id %s): it would hold two votes",
					ErrSameServer, t.Masters[j], e, id)
			}
			ids[id] = i
			t.Servers = append(t.Servers, s)
		}
	}
	if spec.NeedsEtcd {
		if err := t.upEtcd(ctx, spec); err != nil {
			return nil, err
		}
	}
	if err := t.upBackends(ctx, spec); err != nil {
		return nil, err
	}
	return t, nil
}

// Close stops every server Up started, in reverse order.
func (t *Topology) Close() error {
	var errs []error
	for i := len(t.closers) - 1; i >= 0; i-- {
		errs = append(errs, t.closers[i].Close())
	}
	t.closers = nil
	return errors.Join(errs...)
}

// parseAddrList checks a host:port list: every entry well formed and none
// twice. A bad entry is a *fielderr.Error of field.
func parseAddrList(field string, list []string) ([]string, error) {
	for i, a := range list {
		if strings.Contains(a, "@") { // user:password@: shown masked, with the entry a comma may have cut off
			return nil, fielderr.Invalid(field, strings.Join(list[max(0, i-1):i+1], ","), "credentials in an address are not read")
		}
	}
	seen := map[string]bool{}
	out := make([]string, 0, len(list))
	for _, a := range list {
		host, port, err := net.SplitHostPort(a)
		if err != nil || host == "" {
			return nil, fielderr.Invalid(field, a, "want host:port")
		}
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return nil, fielderr.Invalid(field, a, "bad port %q", port)
		}
		if seen[a] {
			return nil, fielderr.Invalid(field, a, "listed twice")
		}
		seen[a] = true
		out = append(out, a)
	}
	return out, nil
}
