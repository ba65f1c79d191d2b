package lab

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/lockbench/lockbench/drivers"
)

// errReleaseDropped is what a release lost by the drop-release fault
// returns: the outcome of a release whose reply never came is unknown.
var errReleaseDropped = errors.New("fault drop-release: the release was lost (never sent), its outcome unknown to the client")

// releaseDrops are the releases the drop-release faults have armed and not
// yet lost.
type releaseDrops struct{ armed atomic.Int64 }

// arm loses the next release.
func (d *releaseDrops) arm() { d.armed.Add(1) }

// take: this release is lost (one armed drop used).
func (d *releaseDrops) take() bool {
	for {
		n := d.armed.Load()
		if n <= 0 {
			return false
		}
		if d.armed.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// droppingLease is a lease whose release the drop-release fault may lose:
// Unlock then returns errReleaseDropped without releasing, so the key
// stays held on the servers until its TTL, as after a release whose
// request was lost on the way.
type droppingLease struct {
	drivers.Lease
	drops *releaseDrops
}

func (l droppingLease) Unlock(ctx context.Context) error {
	if l.drops.take() {
		return errReleaseDropped
	}
	return l.Lease.Unlock(ctx)
}
