// Package zklock is the ZooKeeper baseline: the standard lock recipe (the
// shape of Curator's InterProcessMutex) over github.com/go-zookeeper/zk.
// A contender creates an ephemeral sequential znode under the lock's node;
// the lowest sequence holds the lock; a waiter watches only its predecessor
// (no herd). The holder's znode czxid — the zxid of the transaction that
// created it — grows with every grant and is the fencing token, as etcd's
// create revision is. A lock lives as long as the session: it does not
// expire while the client keeps heart-beating, and it is gone once the
// server expires a silent session.
//
// go-zookeeper's calls take no context: each is bounded by the session's
// timeout. Lock checks its context between steps and waits on watches with
// it.
//
// backend.go registers it as the "zookeeper" backend, its Config as the
// backend's settings ("zookeeper" in a run's JSON, the --zk-* flags).
package zklock

import (
	"crypto/tls"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
)

// Config is the driver's parameters. It serialises into results.
type Config struct {
	// Wait: one attempt queues behind the holder (watching its
	// predecessor) for up to WaitTimeout instead of giving up at once.
	Wait        bool          `json:"wait" flag:"zk-wait" help:"zookeeper: one attempt waits in the queue (watching its predecessor) instead of TryLock"`
	WaitTimeout time.Duration `json:"wait_timeout" flag:"zk-wait-timeout" help:"zookeeper: bound of one attempt; a waiting attempt that runs out counts as busy"`
	// SessionTimeout is asked of the server (which clamps it to its
	// min/max). A holder's validity is this long from its attempt's start:
	// the server expires a session that long after it last heard from it.
	SessionTimeout time.Duration `json:"session_timeout"`
	// Prefix is the persistent parent of every lock node.
	Prefix string `json:"prefix"`
	// Digest is digest credentials, user:password: the session
	// authenticates with them and every node it creates belongs to that
	// user alone. "" (an open server): nodes anyone may use. Never
	// serialised.
	Digest string `json:"-"`
	// TLS, when set, reaches the servers over TLS with it (a local server
	// lockbench starts serves only clients with its CA's certificate).
	// Never serialised.
	TLS *tls.Config `json:"-"`
}

// DefaultConfig: TryLock, a 10 s session.
func DefaultConfig() Config {
	return Config{WaitTimeout: time.Second, SessionTimeout: 10 * time.Second, Prefix: "/lockbench"}
}

// Validate names the flag at fault.
func (c Config) Validate() error {
	switch {
	case c.WaitTimeout <= 0:
		return fielderr.Invalid("wait_timeout", c.WaitTimeout, "must be positive")
	case c.SessionTimeout < 100*time.Millisecond:
		return fielderr.Invalid("ttl", c.SessionTimeout, "the ZooKeeper session timeout must be at least 100ms")
	case len(c.Prefix) < 2 || c.Prefix[0] != '/' || c.Prefix[len(c.Prefix)-1] == '/':
		return fmt.Errorf("zookeeper prefix %q: want /name", c.Prefix)
	}
	return nil
}
