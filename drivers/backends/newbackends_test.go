package backends_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/internal/drivertest"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/drivers/redlock"
	"github.com/lockbench/lockbench/drivers/single"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// TestRedislockConformance: bsm/redislock on the first of the masters.
func TestRedislockConformance(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // shares TestMain's masters on keys of its own: overlaps the other conformance tests
	spec := backends.Spec{Backend: "redislock", Workers: 16, Redlock: redlock.DefaultConfig()}
	// bsm/redislock's first script call is EVALSHA, NOSCRIPT, EVAL: two
	// round trips a loaded machine must fit in the per-call bound.
	spec.Redlock.NodeTimeout = 500 * time.Millisecond
	drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
		s := spec
		s.Redlock.TTL = ttl
		return openPeer(t, s, onMasters())
	}, drivertest.Options{Workers: 16, TTL: 1500 * time.Millisecond})
}

// withWait is s sending WAIT k.
func withWait(s backends.Spec, k int) backends.Spec {
	backends.Update(&s, func(c *single.Config) { c.WaitReplicas = k })
	return s
}

// TestSingle: the single backend through a real Sentinel topology, without
// and with WAIT 1; with replication blocked, a WAIT 1 attempt is refused
// and leaves the key free.
func TestSingle(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // its own Sentinel topology: overlaps the conformance tests
	// Cleanups, not defers: the suites below run after this function
	// returns.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	topo, err := compose.StartSentinel(ctx, compose.DefaultSentinelOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = topo.Close() })
	// Generous per-command bounds: a loaded machine must not turn a grant
	// into a timeout.
	spec := backends.Spec{Backend: "single", Workers: 16, Redlock: redlock.DefaultConfig()}
	backends.Update(&spec, func(c *single.Config) { c.WaitTimeout = 200 * time.Millisecond })
	at := backends.Endpoints{Sentinel: redisconn.Sentinel{MasterName: compose.SentinelMaster, Sentinels: topo.Addrs(), Password: topo.Password}}
	spec.Redlock.NodeTimeout = 500 * time.Millisecond
	// First, while the replica still replicates through the proxy: about
	// failover-timeout (10 s) after it starts, the Sentinel repoints the
	// replica at the master's own address (+fix-slave-config), and
	// BlockReplication then blocks nothing.
	t.Run("BlockedReplicationRefusesWait", func(t *testing.T) {
		s := withWait(spec, 1)
		// What is tested is WAIT's own 200 ms timeout: the command's budget
		// (node timeout + WAIT's) only has to outlast it and the first
		// command's Sentinel lookup and dial, which a loaded machine made
		// miss a 700 ms budget. The largest node timeout the ttl allows;
		// a WAIT that ignored its timeout still fails the test, as a
		// plain timeout instead of ErrNotReplicated.
		s.Redlock.NodeTimeout = s.Redlock.TTL / 3
		l := openPeer(t, s, at)
		defer l.Close()
		if err := topo.BlockReplication(ctx); err != nil {
			t.Fatal(err)
		}
		_, att, err := l.Lock(ctx, "single-blocked")
		if herr := topo.HealReplication(); herr != nil {
			t.Fatal(herr)
		}
		if !errors.Is(err, single.ErrNotReplicated) || drivers.Classify(ctx, att, err) != schema.Timeout {
			t.Fatalf("Lock with replication blocked: err = %v (%v), want ErrNotReplicated classified timeout", err, drivers.Classify(ctx, att, err))
		}
		plain := openPeer(t, withWait(s, 0), at)
		defer plain.Close()
		ls, _, err := plain.Lock(ctx, "single-blocked")
		if err != nil {
			t.Fatalf("the refused grant left the key held: %v", err)
		}
		_ = ls.Unlock(ctx)
	})
	for _, k := range []int{0, 1} {
		s := withWait(spec, k)
		t.Run(s.Name(), func(t *testing.T) {
			t.Parallel() // the two suites overlap each other and the conformance tests
			drivertest.Run(t, func(t *testing.T, ttl time.Duration) drivers.Locker {
				s := s
				s.Redlock.TTL = ttl
				return openPeer(t, s, at)
			}, drivertest.Options{Workers: 16, TTL: 1500 * time.Millisecond})
		})
	}
}
