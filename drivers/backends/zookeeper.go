package backends

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/zklock"
)

func init() {
	Register(Backend{
		Name:      "zookeeper",
		Describe:  "ZooKeeper lock recipe (ephemeral sequential znodes, predecessor watch; Curator InterProcessMutex shape); --ttl is the session timeout, czxid the fencing token",
		On:        ZooKeeper,
		Servers:   1,
		ConfigKey: "zookeeper",
		Open:      openZooKeeper,
		Config:    func() any { c := zklock.DefaultConfig(); return &c },
		Baselines: map[string]func(*Spec){
			"zookeeper":      zkWait(false),
			"zookeeper-wait": zkWait(true),
		},
		Check: func(s Spec) error { return zkConfig(s).Validate() },
		Variant: func(s Spec) string {
			if Settings[zklock.Config](s).Wait {
				return "wait"
			}
			return "try"
		},
	})
}

// zkWait is a baseline row's mode.
func zkWait(wait bool) func(*Spec) {
	return func(s *Spec) {
		c := Settings[zklock.Config](*s)
		c.Wait = wait
		SetSettings(s, c)
	}
}

// zkConfig is the Spec's zookeeper settings with the run's TTL as session
// timeout.
func zkConfig(s Spec) zklock.Config {
	c := Settings[zklock.Config](s)
	c.SessionTimeout = s.Redlock.TTL
	return c
}

func openZooKeeper(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if len(at.ZooKeeper) == 0 {
		return nil, errors.New("backend zookeeper: no ZooKeeper servers (compose did not start any)")
	}
	c := zkConfig(s)
	c.Digest, c.TLS = at.ZooKeeperDigest, at.ZooKeeperTLS
	return zklock.New(ctx, at.ZooKeeper, c)
}
