package zklock

import (
	"context"
	"crypto/tls"
	"fmt"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/internal/testenv"
)

// servers, digest and serverTLS are the test server's addresses and
// credentials.
var (
	servers   []string
	digest    string
	serverTLS *tls.Config
)

// config is DefaultConfig authenticated to the test server.
func config() Config {
	c := DefaultConfig()
	c.Digest, c.TLS = digest, serverTLS
	return c
}

func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{Setup: testenv.Start(
		func(ctx context.Context) (*compose.ZooKeeper, error) {
			return compose.StartZooKeeper(ctx, compose.ZooKeeperOptions{})
		},
		func(z *compose.ZooKeeper) { servers, digest, serverTLS = z.Addrs(), z.Digest(), z.TLS() })})
}

// TestConformance: TryLock and waiting attempts, 16 contending workers.
func TestConformance(t *testing.T) {
	testenv.Servers(t)
	for _, wait := range []bool{false, true} {
		t.Run(fmt.Sprintf("wait=%t", wait), func(t *testing.T) {
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				cfg := config()
				cfg.Wait, cfg.WaitTimeout = wait, 300*time.Millisecond
				l, err := New(context.Background(), servers, cfg)
				if err != nil {
					t.Fatal(err)
				}
				return l
			}, drivertest.Options{Workers: 16, NoExpiry: true})
		})
	}
}

// TestSessionExpiryHandsOver: when the holder's session ends, its znode
// goes with it, the next contender is granted, with a larger czxid.
func TestSessionExpiryHandsOver(t *testing.T) {
	testenv.Servers(t)
	ctx := context.Background()
	a, err := New(ctx, servers, config())
	if err != nil {
		t.Fatal(err)
	}
	cfg := config()
	cfg.Wait, cfg.WaitTimeout = true, 20*time.Second
	b, err := New(ctx, servers, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	la, _, err := a.Lock(ctx, "handover")
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan drivers.Lease, 1)
	go func() {
		lb, _, err := b.Lock(ctx, "handover")
		if err != nil {
			t.Error(err)
		}
		got <- lb
	}()
	_ = a.Close() // the session ends: the server deletes A's znode
	lb := <-got
	if lb == nil {
		return
	}
	defer lb.Unlock(ctx)
	if lb.Fence() <= la.Fence() {
		t.Fatalf("czxid %d after %d: want it to grow", lb.Fence(), la.Fence())
	}
}

// TestUnlockWithEndedContext: an Unlock whose context has ended still
// deletes the znode; the shared session would otherwise hold the lock.
func TestUnlockWithEndedContext(t *testing.T) {
	testenv.Servers(t)
	ctx := context.Background()
	l, err := New(ctx, servers, config())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, _, err := l.Lock(ctx, "ended-unlock")
	if err != nil {
		t.Fatal(err)
	}
	dead, stop := context.WithCancel(ctx)
	stop()
	_ = a.Unlock(dead)
	b, _, err := l.Lock(ctx, "ended-unlock")
	if err != nil {
		t.Fatalf("Lock after an Unlock with an ended context: %v", err)
	}
	_ = b.Unlock(ctx)
}
