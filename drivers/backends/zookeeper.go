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
		Baselines: map[string]func(*Spec){
			"zookeeper":      func(s *Spec) { s.ZooKeeper.Wait = false },
			"zookeeper-wait": func(s *Spec) { s.ZooKeeper.Wait = true },
		},
		Defaults: func(s *Spec) { s.ZooKeeper = zklock.DefaultConfig() },
		Check:    func(s Spec) error { return zkConfig(s).Validate() },
		Variant: func(s Spec) string {
			if s.ZooKeeper.Wait {
				return "wait"
			}
			return "try"
		},
	})
}

// zkConfig is s.ZooKeeper with the run's TTL as session timeout.
func zkConfig(s Spec) zklock.Config {
	c := s.ZooKeeper
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
