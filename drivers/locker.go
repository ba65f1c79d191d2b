// Package drivers holds what every lock backend offers the harness: the
// Locker and Lease interfaces, the per-attempt tally and the sentinel errors.
// Backends live in sub-packages (redlock, etcdlock, peers); the conformance
// suite every one of them passes is drivers/internal/drivertest. A Locker of
// one's own implements its interfaces.
package drivers

import (
	"context"
	"errors"
	"time"
)

// Locker acquires leases on keys.
type Locker interface {
	// Lock makes exactly ONE attempt. Retrying is the workload's job, so
	// every attempt is seen, timed and classified. On failure the Lease is nil
	// and the error is one of the sentinels below (possibly wrapped) or the
	// context's error.
	Lock(ctx context.Context, key string) (Lease, Attempt, error)
	Close() error
}

// Lease is a granted lock.
type Lease interface {
	// Unlock releases the lock where it is still ours; it never deletes
	// another holder's lock.
	Unlock(ctx context.Context) error
	// Extend sets the lock's TTL anew, succeeding only while the lease is
	// still valid; ValidUntil moves forward on success.
	Extend(ctx context.Context, ttl time.Duration) error
	// ValidUntil is the monotonic-clock deadline the holder may trust.
	ValidUntil() time.Time
	// Fence is a fencing token where the backend has one (etcd's revision),
	// else 0.
	Fence() uint64
}

// Attempt is the tally of one Lock attempt, per master (Redlock) or per
// request (single-endpoint backends count as one master).
type Attempt struct {
	Masters     int           `json:"masters"`
	Won         int           `json:"won"`           // masters that granted us the key
	HeldByOther int           `json:"held_by_other"` // masters where another token held it
	Failed      int           `json:"failed"`        // masters that answered with an error
	TimedOut    int           `json:"timed_out"`     // masters that did not answer in time
	Elapsed     time.Duration `json:"elapsed"`       // the attempt's wall time
	// Validity is what was left of the TTL at grant time (ttl − elapsed −
	// drift); zero or negative when the attempt did not acquire.
	Validity time.Duration `json:"validity"`
}

// Sentinel errors. Lock wraps them; test with errors.Is.
var (
	// ErrBusy: the key is held by someone else (a quorum said so).
	ErrBusy = errors.New("drivers: lock held by another owner")
	// ErrNoQuorum: no quorum either way (votes split, or masters failed).
	ErrNoQuorum = errors.New("drivers: no quorum")
	// ErrExpired: a quorum was won but the validity left was not positive.
	ErrExpired = errors.New("drivers: validity expired during acquire")
	// ErrTimeout: too many masters did not answer in time for a quorum.
	ErrTimeout = errors.New("drivers: masters timed out")
	// ErrNotHeld: Unlock or Extend found the lease no longer ours.
	ErrNotHeld = errors.New("drivers: lease no longer held")
)
