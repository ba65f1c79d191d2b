package compose

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// pingTimeout bounds the up-front check of an external etcd, ZooKeeper or
// PostgreSQL server.
const pingTimeout = 3 * time.Second

// unreachable is the error of the external server shown (given as flag)
// that failed its up-front check, bounded by d. A timeout says that the
// server gave no answer within d — the clients' own words for it (context
// deadline exceeded, i/o timeout, use of closed network connection) do
// not; an interruption (ctx cancelled) is said as such.
func unreachable(ctx context.Context, flag, shown string, d time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("%w: %s %s: %w", ErrUnreachable, flag, shown, ctx.Err())
	}
	switch ok, dial := drivers.NoAnswer(err); {
	case ok && dial:
		return fmt.Errorf("%w: %s %s: no connection within %v: nothing accepted it", ErrUnreachable, flag, shown, d)
	case ok:
		return fmt.Errorf("%w: %s %s: no answer within %v (%v)", ErrUnreachable, flag, shown, d, err)
	}
	return fmt.Errorf("%w: %s %s: %v", ErrUnreachable, flag, shown, err)
}
