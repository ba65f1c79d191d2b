package zklock

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

func init() {
	backends.Register(backends.Backend{
		Name:      "zookeeper",
		Describe:  "ZooKeeper lock recipe (ephemeral sequential znodes, predecessor watch; Curator InterProcessMutex shape); --ttl is the session timeout, czxid the fencing token",
		On:        backends.ZooKeeper,
		Servers:   1,
		ConfigKey: "zookeeper",
		Open:      openZooKeeper,
		Config:    func() any { c := DefaultConfig(); return &c },
		Baselines: map[string]func(*backends.Spec){
			"zookeeper":      zkWait(false),
			"zookeeper-wait": zkWait(true),
		},
		Check: func(s backends.Spec) error { return zkConfig(s).Validate() },
		Variant: func(s backends.Spec) string {
			if backends.Settings[Config](s).Wait {
				return "wait"
			}
			return "try"
		},
	})
}

// zkWait is a baseline row's mode.
func zkWait(wait bool) func(*backends.Spec) {
	return func(s *backends.Spec) { backends.Update(s, func(c *Config) { c.Wait = wait }) }
}

// zkConfig is the Spec's zookeeper settings with the run's TTL as session
// timeout.
func zkConfig(s backends.Spec) Config {
	c := backends.Settings[Config](s)
	c.SessionTimeout = s.Redlock.TTL
	return c
}

func openZooKeeper(ctx context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	if len(at.ZooKeeper) == 0 {
		return nil, errors.New("backend zookeeper: no ZooKeeper servers (compose did not start any)")
	}
	c := zkConfig(s)
	c.Digest, c.TLS = at.ZooKeeperDigest, at.ZooKeeperTLS
	return New(ctx, at.ZooKeeper, c)
}
