package zklock

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/internal/testenv"
)

// TestNoOrphanAfterRestart: the server crashes while a lock is held, so
// the unlock cannot reach it; it comes back within the session timeout
// (the session, and its znodes, survive). The unlock must still happen
// (a guaranteed delete): otherwise the znode holds the key for as long as
// the shared session lives and every later attempt is busy.
func TestNoOrphanAfterRestart(t *testing.T) {
	testenv.Servers(t)
	ctx := context.Background()
	z, err := compose.StartZooKeeper(ctx, compose.ZooKeeperOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	cfg := DefaultConfig()
	cfg.Digest, cfg.TLS = z.Digest(), z.TLS()
	l, err := New(ctx, z.Addrs(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	lease, _, err := l.Lock(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if err := z.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := lease.Unlock(ctx); err == nil {
		t.Fatal("unlock succeeded with the server down")
	}
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := z.Start(rctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(8 * time.Second) // within the 10 s session
	for {
		lease, _, err := l.Lock(ctx, "k")
		if err == nil {
			_ = lease.Unlock(ctx)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("key still not granted 8 s after the restart: %v", err)
		}
		if !errors.Is(err, drivers.ErrBusy) && !errors.Is(err, drivers.ErrTimeout) {
			t.Logf("attempt: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
