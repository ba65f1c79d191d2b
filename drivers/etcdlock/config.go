// Package etcdlock is the etcd baseline: a lock on a key of a Raft-replicated
// store, taken either with the client-side recipe (concurrency.Session and
// concurrency.Mutex) or with the server-side v3lock Lock/Unlock RPCs. Every
// grant, lock and unlock goes through Raft, so it is the CP alternative
// measured the same way as Redlock.
//
// backend.go registers it as the "etcd" backend, its Config as the
// backend's settings ("etcd" in a run's JSON, the --etcd-* flags).
package etcdlock

import (
	"time"

	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/results/fielderr"
)

// Modes of taking the lock.
const (
	ModeClient = "client" // concurrency.Mutex: TryLock (or Lock with Wait)
	ModeRPC    = "rpc"    // v3lock Lock/Unlock RPCs: the server waits in the queue
)

// modes lists the accepted --etcd-mode values.
var modes = []string{ModeClient, ModeRPC}

// Config is the driver's parameters. It serialises into results.
type Config struct {
	Mode string `json:"mode" flag:"etcd-mode" help:"etcd lock path: client (concurrency.Mutex) | rpc (v3lock Lock/Unlock RPCs)"`
	// TTL is the lease TTL; etcd counts whole seconds, so it is rounded up
	// (and the server may raise it to its minimum). Set from --ttl.
	TTL time.Duration `json:"-"`
	// Wait (client mode): one attempt is Mutex.Lock, queued FIFO behind the
	// holder, instead of TryLock. rpc mode always waits.
	Wait bool `json:"wait" flag:"etcd-wait" help:"client mode: one attempt is Mutex.Lock (FIFO queue) instead of TryLock"`
	// WaitTimeout bounds one attempt. A waiting attempt that runs out of it
	// counts as busy (it was queued behind a holder); a TryLock attempt
	// that runs out of it counts as a timeout.
	WaitTimeout time.Duration `json:"wait_timeout" flag:"etcd-wait-timeout" help:"bound of one etcd attempt; a waiting attempt that runs out counts as busy"`
	// SessionPerCycle pays Grant (+ keep-alive stream) and Revoke on every
	// cycle instead of reusing one session per worker.
	SessionPerCycle bool `json:"session_per_cycle" flag:"etcd-session-per-cycle" help:"grant and revoke a session every cycle instead of one per worker"`
	// KeepAlive keeps each session's lease alive in the background (what
	// concurrency.Session does): a held lock then lives until Unlock or
	// until the client dies. Without it a lease lives TTL, like a Redlock
	// key, and every cycle gets a fresh lease.
	KeepAlive bool `json:"keep_alive" flag:"etcd-keepalive" help:"keep session leases alive (false: a lease lives --ttl like a Redlock key; implies a session per cycle)"`
	// Prefix is put before every lock name.
	Prefix string `json:"prefix"`
	// Access is TLS and the etcd user (from compose: flags or the local
	// cluster's own).
	Access etcdconn.Access `json:"access" flag:"-"`
}

// DefaultConfig is client mode, TryLock, a kept-alive session per worker.
func DefaultConfig() Config {
	return Config{Mode: ModeClient, TTL: 10 * time.Second, WaitTimeout: time.Second, KeepAlive: true, Prefix: "lockbench/"}
}

// TTLSeconds is TTL rounded up to whole seconds, at least 1.
func (c Config) TTLSeconds() int64 {
	s := int64((c.TTL + time.Second - 1) / time.Second)
	return max(s, 1)
}

// perCycle reports whether sessions are not reused: asked for, or implied
// by leases that are not kept alive (an idle lease would lapse).
func (c Config) perCycle() bool { return c.SessionPerCycle || !c.KeepAlive }

// waits reports whether one attempt queues behind the holder.
func (c Config) waits() bool { return c.Mode == ModeRPC || c.Wait }

// Validate names the first flag that cannot work.
func (c Config) Validate() error {
	switch {
	case c.Mode != ModeClient && c.Mode != ModeRPC:
		return fielderr.Invalid("mode", c.Mode, "want client or rpc")
	case c.Wait && c.Mode == ModeRPC:
		return fielderr.Invalid("wait", nil, "rpc mode always waits (the Lock RPC queues on the server); waiting applies to client mode")
	case c.WaitTimeout <= 0:
		return fielderr.Invalid("wait_timeout", c.WaitTimeout, "must be positive")
	case c.TTL <= 0:
		return fielderr.Invalid("ttl", c.TTL, "must be positive")
	}
	return nil
}
