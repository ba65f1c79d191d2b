// Package pglock is the PostgreSQL baseline: advisory locks over pgx. In
// session mode a grant is pg_try_advisory_lock (or, waiting,
// pg_advisory_lock bounded by lock_timeout) on a pooled connection that the
// lease keeps until pg_advisory_unlock: the lock belongs to the server
// session, so lock and unlock must run on the same connection. In xact mode
// a grant is pg_try_advisory_xact_lock (or pg_advisory_xact_lock) inside a
// transaction, released by COMMIT. Neither expires with time: a lock lives
// until unlocked or until its session ends. Advisory locks have no fencing
// token; the key is a 64-bit FNV-1a hash of the lock name.
//
// backend.go registers it as the "postgres" backend, its Config as the
// backend's settings ("postgres" in a run's JSON, the --pg-* flags).
package pglock

import (
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
)

// Modes of taking the lock.
const (
	ModeSession = "session" // pg_try_advisory_lock / pg_advisory_unlock
	ModeXact    = "xact"    // pg_try_advisory_xact_lock in BEGIN … COMMIT
)

// modes lists the accepted --pg-mode values.
var modes = []string{ModeSession, ModeXact}

// Config is the driver's parameters. It serialises into results.
type Config struct {
	Mode string `json:"mode" flag:"pg-mode" help:"postgres: session (pg_try_advisory_lock on a held connection) | xact (pg_try_advisory_xact_lock in a transaction)"`
	// Wait: one attempt queues behind the holder (pg_advisory_lock) for up
	// to WaitTimeout (the session's lock_timeout) instead of trying once.
	Wait        bool          `json:"wait" flag:"pg-wait" help:"postgres: one attempt waits (pg_advisory_lock) up to --pg-wait-timeout instead of trying once"`
	WaitTimeout time.Duration `json:"wait_timeout" flag:"pg-wait-timeout" help:"postgres: lock_timeout of a waiting attempt; running out counts as busy"`
	// TTL is the nominal validity given to the referee: the lock itself
	// does not expire. Set from --ttl.
	TTL time.Duration `json:"-"`
}

// DefaultConfig is session mode, try-lock.
func DefaultConfig() Config {
	return Config{Mode: ModeSession, WaitTimeout: time.Second, TTL: 10 * time.Second}
}

// Validate names the flag at fault.
func (c Config) Validate() error {
	switch {
	case c.Mode != ModeSession && c.Mode != ModeXact:
		return fielderr.Invalid("mode", c.Mode, "want session or xact")
	case c.WaitTimeout < time.Millisecond:
		return fielderr.Invalid("wait_timeout", c.WaitTimeout, "must be at least 1ms")
	case c.TTL <= 0:
		return fielderr.Invalid("ttl", c.TTL, "must be positive")
	}
	return nil
}
