package scenario

import (
	"context"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/zklock"
	"github.com/lockbench/lockbench/workloads/lab"
)

// measurePauseZK is client-pause for ZooKeeper. A ZooKeeper lock does not
// expire while its client lives, so the pause must silence the client as a
// real pause does: A reaches ZooKeeper through a fault proxy that, while A
// is paused, drops everything — its heart-beats stop, the server expires
// its session after the session timeout and deletes A's znode, and B (on
// its own session) is granted the lock with a larger czxid. A then resumes
// and writes with its own czxid: the register refuses it.
func measurePauseZK(ctx context.Context, backend string) (pauseMeasure, error) {
	cfg := lab.DefaultConfig()
	cfg.Driver.Backend = backend
	if err := prepare(&cfg); err != nil {
		return pauseMeasure{}, err
	}
	topo, err := compose.Up(ctx, cfg.Topology)
	if err != nil {
		return pauseMeasure{}, err
	}
	defer topo.Close()
	zc := backends.Settings[zklock.Config](cfg.Driver)
	zc.Digest, zc.TLS = topo.ZooKeeperDigest, topo.ZooKeeperTLS
	zc.SessionTimeout = 2 * time.Second // the server's minimum here is 400ms
	b, err := zklock.New(ctx, topo.ZooKeeperAddrs, zc)
	if err != nil {
		return pauseMeasure{}, err
	}
	defer b.Close()
	return playRounds(backend, func(key string) (bool, error) { return pauseRoundZK(ctx, topo.ZooKeeperAddrs, zc, b, key) })
}

// silence drops everything through a proxy, both ways.
var silence = []compose.Toxic{
	{Name: "pause-down", Type: "timeout", Stream: "downstream", Attributes: map[string]any{"timeout": 0}},
	{Name: "pause-up", Type: "timeout", Stream: "upstream", Attributes: map[string]any{"timeout": 0}},
}

// pauseRoundZK is a round whose A is its own client, through a proxy that
// silences it while it is paused.
func pauseRoundZK(ctx context.Context, servers []string, zc zklock.Config, b *zklock.Locker, key string) (bool, error) {
	px, err := compose.StartProxies(servers)
	if err != nil {
		return false, err
	}
	defer px.Close()
	a, err := zklock.New(ctx, px.Addrs(), zc)
	if err != nil {
		return false, err
	}
	defer a.Close()
	pause := func() (func(), error) {
		for _, t := range silence {
			if err := px.AddToxic(0, t); err != nil {
				return nil, err
			}
		}
		return func() {
			for _, t := range silence {
				_ = px.RemoveToxic(0, t.Name)
			}
		}, nil
	}
	return pauseRound(ctx, a, b, pause, key)
}
