package backends

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/zklock"
)

func init() {
	Register(Backend{
		Name:           "zookeeper",
		Describe:       "ZooKeeper lock recipe (ephemeral sequential znodes, predecessor watch; Curator InterProcessMutex shape); --ttl is the session timeout, czxid the fencing token",
		NeedsZooKeeper: true,
		Open:           openZooKeeper,
		Check:          func(s Spec) error { return zkConfig(s).Validate() },
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

func openZooKeeper(ctx context.Context, s Spec) (drivers.Locker, error) {
	if len(s.ZooKeeperAddrs) == 0 {
		return nil, errors.New("backend zookeeper: no ZooKeeper servers (compose did not start any)")
	}
	return zklock.New(ctx, s.ZooKeeperAddrs, zkConfig(s))
}
