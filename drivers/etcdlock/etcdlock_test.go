package etcdlock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/etcdconn"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
)

// endpoints are a real one-member etcd (this test binary re-executed as an
// etcdmember, fsync on) started for the package's tests.
var endpoints []string

// access is the root user's credentials of the test cluster (a local
// cluster always has auth on).
var access etcdconn.Access

// withAccess is cfg authenticated to the test cluster.
func withAccess(cfg Config) Config {
	cfg.Access = access
	return cfg
}

func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Needs{
		Children: []func(){compose.ServeIfChild},
		// The conformance suite's tests mostly sleep through leases (whole
		// seconds on etcd): they overlap.
		Waiting: 8,
		Setup: testenv.Start(
			func(ctx context.Context) (*compose.Etcd, error) {
				return compose.StartEtcd(ctx, compose.EtcdOptions{Members: 1})
			},
			func(e *compose.Etcd) { endpoints, access = e.Addrs(), e.Access }),
	})
}

func open(t *testing.T, cfg Config) *locker {
	t.Helper()
	l, err := New(context.Background(), endpoints, withAccess(cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// TestConformance runs the shared suite on every way of taking the lock,
// with leases that live TTL (no keep-alive): the suite's expiry tests need
// locks that lapse while their client lives.
func TestConformance(t *testing.T) {
	testenv.Servers(t)
	cases := []struct {
		name string
		cfg  func(*Config)
	}{
		{"client-trylock", func(c *Config) {}},
		{"client-wait", func(c *Config) { c.Wait = true }},
		{"rpc", func(c *Config) { c.Mode = ModeRPC }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				cfg := DefaultConfig()
				// One attempt's bound scaled for load (internal/testenv/slow): an
				// attempt on a held key must answer busy, not time out.
				cfg.KeepAlive, cfg.TTL, cfg.WaitTimeout = false, ttl, slow.D(300*time.Millisecond)
				tc.cfg(&cfg)
				l, err := New(context.Background(), endpoints, withAccess(cfg))
				if err != nil {
					t.Fatal(err)
				}
				return l
			}, drivertest.Options{TTL: 2 * time.Second, Workers: 16})
		})
	}
}

// TestKeptAliveSession: with keep-alive (the default) a worker's session is
// reused cycle after cycle and a held lock outlives its TTL.
func TestKeptAliveSession(t *testing.T) {
	testenv.Servers(t)
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := DefaultConfig()
			// One attempt's bound scaled for load (internal/testenv/slow).
			cfg.Mode, cfg.TTL, cfg.WaitTimeout = mode, time.Second, slow.D(300*time.Millisecond)
			l := open(t, cfg)
			ctx := context.Background()
			key := "kept-alive/" + t.Name()
			a, _, err := l.Lock(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			leaseID := a.(*lease).s.lease()
			// Well past the granted TTL (etcd raises 1 s to its minimum, 2 s
			// with default timing): the kept-alive lock is still held.
			time.Sleep(3 * time.Second)
			if _, _, err := l.Lock(ctx, key); !errors.Is(err, drivers.ErrBusy) {
				t.Fatalf("Lock while a kept-alive holder sleeps past TTL: err = %v, want ErrBusy", err)
			}
			if err := a.Unlock(ctx); err != nil {
				t.Fatalf("Unlock: %v", err)
			}
			b, _, err := l.Lock(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Unlock(ctx)
			if got := b.(*lease).s.lease(); got != leaseID {
				t.Fatalf("second cycle used lease %x, want the reused %x", got, leaseID)
			}
			if b.Fence() <= a.Fence() {
				t.Fatalf("fence went %d → %d: want it to grow with every grant", a.Fence(), b.Fence())
			}
		})
	}
}

// TestSessionPerCycle: every cycle gets a fresh lease, revoked on Unlock.
func TestSessionPerCycle(t *testing.T) {
	testenv.Servers(t)
	cfg := DefaultConfig()
	cfg.SessionPerCycle = true
	l := open(t, cfg)
	ctx := context.Background()
	a, _, err := l.Lock(ctx, "per-cycle")
	if err != nil {
		t.Fatal(err)
	}
	id := a.(*lease).s.lease()
	if err := a.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	ttl, err := l.cli.TimeToLive(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if ttl.TTL != -1 {
		t.Fatalf("lease %x after Unlock: TTL %d, want -1 (revoked)", id, ttl.TTL)
	}
	b, _, err := l.Lock(ctx, "per-cycle")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Unlock(ctx)
	if b.(*lease).s.lease() == id {
		t.Fatal("second cycle reused the revoked lease")
	}
}

// TestFIFO: the waiting paths (rpc, client --etcd-wait) grant in queue
// order: with B queued before C behind holder A, B gets the lock first.
func TestFIFO(t *testing.T) {
	testenv.Servers(t)
	cases := []struct {
		name string
		cfg  func(*Config)
	}{
		{"rpc", func(c *Config) { c.Mode = ModeRPC }},
		{"client-wait", func(c *Config) { c.Wait = true }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := DefaultConfig()
			cfg.WaitTimeout = 20 * time.Second
			tc.cfg(&cfg)
			l := open(t, cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			key := "fifo/" + tc.name
			a, _, err := l.Lock(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			type result struct {
				who string
				ls  drivers.Lease
				err error
			}
			got := make(chan result, 2)
			for i, who := range []string{"B", "C"} {
				go func() {
					ls, _, err := l.Lock(ctx, key)
					got <- result{who, ls, err}
				}()
				waitQueued(t, ctx, l.cli, cfg.Prefix+key, i+2) // A + the waiters so far
			}
			if err := a.Unlock(ctx); err != nil {
				t.Fatal(err)
			}
			first := <-got
			if first.err != nil || first.who != "B" {
				t.Fatalf("first grant after A: %s (err %v), want B, queued first", first.who, first.err)
			}
			if err := first.ls.Unlock(ctx); err != nil {
				t.Fatal(err)
			}
			second := <-got
			if second.err != nil {
				t.Fatalf("C: %v", second.err)
			}
			_ = second.ls.Unlock(ctx)
		})
	}
}

// waitQueued polls until name has n keys (holder + waiters).
func waitQueued(t *testing.T, ctx context.Context, cli *clientv3.Client, name string, n int) {
	t.Helper()
	for {
		resp, err := cli.Get(ctx, name+"/", clientv3.WithPrefix(), clientv3.WithCountOnly())
		if err != nil {
			t.Fatal(err)
		}
		if int(resp.Count) >= n {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d waiters never queued on %s", n, name)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func TestConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		cfg  func(*Config)
		flag string // the field named; "" when valid
	}{
		{"default", func(c *Config) {}, ""},
		{"rpc", func(c *Config) { c.Mode = ModeRPC }, ""},
		{"bad mode", func(c *Config) { c.Mode = "raft" }, "mode"},
		{"rpc wait", func(c *Config) { c.Mode, c.Wait = ModeRPC, true }, "wait"},
		{"zero wait timeout", func(c *Config) { c.WaitTimeout = 0 }, "wait_timeout"},
		{"zero ttl", func(c *Config) { c.TTL = 0 }, "ttl"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.cfg(&c)
			err := c.Validate()
			switch {
			case tc.flag == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.flag != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.flag)):
				t.Fatalf("err = %v, want one naming %s", err, tc.flag)
			}
		})
	}
	for _, tc := range []struct {
		ttl  time.Duration
		want int64
	}{{time.Millisecond, 1}, {time.Second, 1}, {1500 * time.Millisecond, 2}, {10 * time.Second, 10}} {
		c := Config{TTL: tc.ttl}
		if got := c.TTLSeconds(); got != tc.want {
			t.Errorf("TTLSeconds(%v) = %d, want %d", tc.ttl, got, tc.want)
		}
	}
}

// TestLeaseRanOutWhileWaiting: a queued attempt whose own lease (no
// keep-alive) runs out before the holder's does lost its waiter key: the
// attempt is a timeout (validity used up), not a server error.
func TestLeaseRanOutWhileWaiting(t *testing.T) {
	testenv.Servers(t)
	cfg := DefaultConfig()
	cfg.KeepAlive, cfg.Wait, cfg.TTL, cfg.WaitTimeout = false, true, 2*time.Second, slow.D(20*time.Second)
	l := open(t, cfg)
	ctx := context.Background()
	key := "lapsed-waiter/" + t.Name()
	a, _, err := l.Lock(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Unlock(ctx)
	// The holder refreshes its lease once a second into the wait, so the
	// waiter's (granted at about the same time, never refreshed) runs out
	// while the holder's key still stands, by a margin wider than etcd's
	// half-second expiry check; when the holder's key goes too, the waiter
	// finds its own gone. Without the refresh the two leases lapse within
	// one check of each other and the waiter may rightly be granted.
	type result struct {
		att drivers.Attempt
		err error
	}
	waited := make(chan result, 1)
	go func() {
		_, att, err := l.Lock(ctx, key)
		waited <- result{att, err}
	}()
	time.Sleep(time.Second)
	if err := a.Extend(ctx, cfg.TTL); err != nil {
		t.Fatalf("refreshing the holder's lease: %v", err)
	}
	r := <-waited
	att, err := r.att, r.err
	if got := drivers.Classify(ctx, att, err); got != schema.Timeout && got != schema.Busy {
		t.Fatalf("a waiter whose lease ran out: %v classified %v, want Timeout (or Busy)", err, got)
	}
	if err != nil && !errors.Is(err, drivers.ErrBusy) && att.TimedOut != 1 {
		t.Fatalf("attempt %+v: a lapsed waiter counts as timed out", att)
	}
}
