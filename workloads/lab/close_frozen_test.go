package lab_test

import (
	"context"
	"fmt"
	"github.com/lockbench/lockbench/internal/testenv"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestCloseWithFrozenServer: with its servers frozen (SIGSTOP), leases
// still held and workers blocked in attempts, every backend's Close
// returns within drivers.CloseBudget (a pool waits for connections in
// use, rueidis for pending calls: both unbounded without it).
func TestCloseWithFrozenServer(t *testing.T) {
	testenv.Servers(t)
	for _, c := range []struct{ backend, client string }{
		{"redlock", "goredis"}, {"redlock", "rueidis"}, {"rueidislock", ""},
		{"etcd", ""}, {"zookeeper", ""}, {"postgres", ""},
	} {
		t.Run(c.backend+"/"+c.client, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cfg := lab.DefaultConfig()
			cfg.Driver.Backend, cfg.Driver.Client = c.backend, c.client
			b, _ := backends.Lookup(c.backend)
			cfg.Topology = lab.ServersFor(cfg.Topology, b)
			cfg.Topology.Etcd.Members = 1
			l := upLab(t, ctx, cfg)
			spec := cfg.Driver
			spec.Workers = 4
			lk, err := backends.Open(ctx, spec, l.Endpoints())
			if err != nil {
				t.Fatal(err)
			}
			for i := range 2 { // leases never released
				if err := lockSettled(ctx, lk, fmt.Sprintf("held%d", i)); err != nil {
					t.Fatalf("lock before the freeze: %v", err)
				}
			}
			resume := freeze(t, l.Topo)
			defer resume()
			wctx, stop := context.WithTimeout(ctx, 300*time.Millisecond)
			defer stop()
			for i := range 4 { // blocked in attempts, cancelled
				go func() { _, _, _ = lk.Lock(wctx, fmt.Sprintf("w%d", i)) }()
			}
			time.Sleep(500 * time.Millisecond)
			start := time.Now()
			_ = lk.Close()
			if took := time.Since(start); took > drivers.CloseBudget+time.Second {
				t.Errorf("Close took %v with the servers frozen, budget %v", took, drivers.CloseBudget)
			}
		})
	}
}

// lockSettled takes key, asking again (up to 5 attempts) while the answer
// is a timeout: servers too slow to answer on a loaded machine say nothing
// about Close, which is what the test is about.
func lockSettled(ctx context.Context, l drivers.Locker, key string) error {
	for i := 0; ; i++ {
		_, att, err := l.Lock(ctx, key)
		if i == 4 || drivers.Classify(ctx, att, err) != schema.Timeout {
			return err
		}
	}
}

// freeze stops every server of topo (SIGSTOP); the func thaws them.
func freeze(t *testing.T, topo *compose.Topology) func() {
	t.Helper()
	type pauser interface {
		Pause() error
		Resume() error
	}
	var ps []pauser
	if topo.Redis != nil {
		for _, s := range topo.Redis.Servers {
			ps = append(ps, s)
		}
	}
	if topo.Etcd != nil {
		for _, m := range topo.Etcd.Members {
			ps = append(ps, m)
		}
	}
	if topo.ZooKeeper != nil {
		ps = append(ps, topo.ZooKeeper)
	}
	if topo.Postgres != nil {
		ps = append(ps, topo.Postgres)
	}
	for _, p := range ps {
		if err := p.Pause(); err != nil {
			t.Fatal(err)
		}
	}
	return func() {
		for _, p := range ps {
			_ = p.Resume()
		}
	}
}
