package main

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

// unsafeBackend is a deliberately broken lock, registered in the test
// binary only (lockbench re-executed by the tests), never in lockbench: it
// grants every attempt at once and claims the TTL of validity, so holders
// of one key overlap whenever their holds do. It proves a referee finds
// overlaps. It needs Redis masters only for the generators' common clock.
const unsafeBackend = "unsafe-always-grants"

func init() {
	backends.Register(backends.Backend{Name: unsafeBackend, Describe: "test only: grants every attempt", On: backends.Redis,
		Open: func(_ context.Context, s backends.Spec, _ backends.Endpoints) (drivers.Locker, error) {
			return alwaysGrants{ttl: s.Redlock.TTL}, nil
		}})
}

type alwaysGrants struct{ ttl time.Duration }

func (a alwaysGrants) Lock(context.Context, string) (drivers.Lease, drivers.Attempt, error) {
	now := time.Now()
	return unsafeLease{until: now.Add(a.ttl)}, drivers.Attempt{Masters: 1, Won: 1, Validity: a.ttl}, nil
}

func (alwaysGrants) Close() error { return nil }

type unsafeLease struct{ until time.Time }

func (unsafeLease) Unlock(context.Context) error                { return nil }
func (unsafeLease) Extend(context.Context, time.Duration) error { return nil }
func (l unsafeLease) ValidUntil() time.Time                     { return l.until }
func (unsafeLease) Fence() uint64                               { return 0 }
