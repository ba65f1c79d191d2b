package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/zklock"
)

// measurePauseZK is client-pause for ZooKeeper. A ZooKeeper lock does not
// expire while its client lives, so the pause must silence the client as a
// real pause does: A reaches ZooKeeper through a fault proxy that, while A
// is paused, drops everything — its heart-beats stop, the server expires
// its session after the session timeout and deletes A's znode, and B (on
// its own session) is granted the lock with a larger czxid. A then resumes
// and writes with its own czxid: the register refuses it.
func measurePauseZK(ctx context.Context) (pauseOutcome, error) {
	o := pauseOutcome{Scenario: "client-pause", Backend: "zookeeper", Rounds: pauseRounds}
	cfg := defaultRunConfig()
	cfg.Driver.Backend = "zookeeper"
	cfg.Quiet = true
	if err := cfg.validate(); err != nil {
		return o, err
	}
	topo, err := compose.Up(ctx, cfg.Topology)
	if err != nil {
		return o, upError(ctx, err)
	}
	defer topo.Close()
	zc := cfg.Driver.ZooKeeper
	zc.SessionTimeout = 2 * time.Second // the server's minimum here is 400ms
	b, err := zklock.New(ctx, topo.ZooKeeperAddrs, zc)
	if err != nil {
		return o, err
	}
	defer b.Close()
	for round := range pauseRounds {
		accepted, err := pauseRoundZK(ctx, topo.ZooKeeperAddrs, zc, b, fmt.Sprintf("pause-%d-%d", time.Now().UnixNano(), round))
		if err != nil {
			return o, err
		}
		if accepted {
			o.StaleAccepted++
		} else {
			o.StaleRejected++
		}
	}
	return o, nil
}

// silence drops everything through a proxy, both ways.
var silence = []compose.Toxic{
	{Name: "pause-down", Type: "timeout", Stream: "downstream", Attributes: map[string]any{"timeout": 0}},
	{Name: "pause-up", Type: "timeout", Stream: "upstream", Attributes: map[string]any{"timeout": 0}},
}

func pauseRoundZK(ctx context.Context, servers []string, zc zklock.Config, b *zklock.Locker, key string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
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
	la, err := lockRetry(ctx, a, key)
	if err != nil {
		return false, fmt.Errorf("A: %w", err)
	}
	var reg register
	if !reg.write(la.Fence()) {
		return false, errors.New("A's first write refused")
	}
	for _, t := range silence { // A is paused from here
		if err := px.AddToxic(0, t); err != nil {
			return false, err
		}
	}
	lb, err := lockRetry(ctx, b, key)
	if err != nil {
		return false, fmt.Errorf("B: %w", err)
	}
	if !reg.write(lb.Fence()) {
		return false, errors.New("B's write refused")
	}
	for _, t := range silence { // A resumes, unaware its session expired
		_ = px.RemoveToxic(0, t.Name)
	}
	accepted := reg.write(la.Fence())
	_ = lb.Unlock(ctx)
	return accepted, nil
}
