package compose

import (
	"context"
	"errors"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/fielderr"
)

// pingTimeout bounds the up-front check of an external etcd, ZooKeeper or
// PostgreSQL server.
const pingTimeout = 3 * time.Second

// unreachable is the error of the external server value (given in the
// config field field) that failed its up-front check, bounded by d: bad
// input in that field, and ErrUnreachable. A timeout says that the server
// gave no answer within d — the clients' own words for it (context
// deadline exceeded, i/o timeout, use of closed network connection) do
// not; an interruption (ctx cancelled) is said as such.
func unreachable(ctx context.Context, field string, value any, d time.Duration, err error) error {
	if errors.Is(ctx.Err(), context.Canceled) {
		return fielderr.Invalid(field, value, "%w: %w", ErrUnreachable, ctx.Err())
	}
	switch ok, dial := drivers.NoAnswer(err); {
	case ok && dial:
		return fielderr.Invalid(field, value, "%w: no connection within %v: nothing accepted it", ErrUnreachable, d)
	case ok:
		return fielderr.Invalid(field, value, "%w: no answer within %v (%v)", ErrUnreachable, d, err)
	}
	return fielderr.Invalid(field, value, "%w: %v", ErrUnreachable, err)
}
