package safety

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

// tokens hands a holder the fencing token of its grant.
type tokens interface {
	take(ctx context.Context, key string, l drivers.Lease) (uint64, error)
	Close() error
}

// errNoToken: a lease of a backend expected to carry a token had none.
var errNoToken = errors.New("safety: the lease carries no fencing token")

// tokensFor is where b's tokens come from: a lock on Redis masters has no
// token of its own, so the holder INCRs a counter per key on master
// counter (1-based) right after its grant (one server: the counter is not
// as fault tolerant as the lock, as with any such add-on), or on the
// Sentinel's current master (replicated as the lock is, and lost with it
// in a failover); a PostgreSQL
// advisory lock has none either, so the holder takes the next value of a
// sequence on the same server; any other backend's lease carries one
// (etcd's create revision, ZooKeeper's czxid).
func tokensFor(ctx context.Context, b backends.Backend, at backends.Endpoints, counter int) (tokens, error) {
	switch b.On {
	case backends.Postgres:
		return openSequence(ctx, at.Postgres)
	case backends.Sentinel:
		s := at.Sentinel
		return &counterTokens{c: redis.NewFailoverClient(&redis.FailoverOptions{MasterName: s.MasterName, SentinelAddrs: s.Sentinels,
			Password: s.Password, SentinelPassword: s.Password, DisableIdentity: true})}, nil
	case backends.Redis:
	default:
		return leaseTokens{}, nil
	}
	if counter < 1 || counter > len(at.Masters) {
		return nil, fmt.Errorf("safety: no Redis master %d for the fencing counter (%d masters)", counter, len(at.Masters))
	}
	return &counterTokens{c: redis.NewClient(at.Masters[counter-1].GoRedis())}, nil
}

// leaseTokens are the lease's own (drivers.Lease.Fence).
type leaseTokens struct{}

func (leaseTokens) take(_ context.Context, _ string, l drivers.Lease) (uint64, error) {
	if f := l.Fence(); f != 0 {
		return f, nil
	}
	return 0, errNoToken
}

func (leaseTokens) Close() error { return nil }

// counterTokens INCR one counter per lock key.
type counterTokens struct{ c *redis.Client }

func (t *counterTokens) take(ctx context.Context, key string, _ drivers.Lease) (uint64, error) {
	n, err := t.c.Incr(ctx, "lockbench:fence:"+key).Uint64()
	if err != nil {
		return 0, fmt.Errorf("safety: fencing counter: %w", err)
	}
	return n, nil
}

func (t *counterTokens) Close() error { return t.c.Close() }

// sequenceTokens are the values of one PostgreSQL sequence: each larger
// than any taken before, so a later grant of a key always carries the
// larger token.
type sequenceTokens struct{ pool *pgxpool.Pool }

// openSequence creates the sequence on the server at url, if it is not
// there, and pools connections to take its values.
func openSequence(ctx context.Context, url string) (*sequenceTokens, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("safety: fencing sequence: %w", err)
	}
	if _, err := pool.Exec(ctx, "CREATE SEQUENCE IF NOT EXISTS lockbench_fence"); err != nil {
		pool.Close()
		return nil, fmt.Errorf("safety: fencing sequence: %w", err)
	}
	return &sequenceTokens{pool: pool}, nil
}

func (t *sequenceTokens) take(ctx context.Context, _ string, _ drivers.Lease) (uint64, error) {
	var n int64
	if err := t.pool.QueryRow(ctx, "SELECT nextval('lockbench_fence')").Scan(&n); err != nil {
		return 0, fmt.Errorf("safety: fencing sequence: %w", err)
	}
	return uint64(n), nil
}

func (t *sequenceTokens) Close() error {
	t.pool.Close()
	return nil
}
