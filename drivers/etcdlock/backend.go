package etcdlock

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

func init() {
	backends.Register(backends.Backend{
		Name:      "etcd",
		Describe:  "etcd lock baseline: concurrency.Mutex (--etcd-mode client) or the v3lock RPCs (rpc); every step goes through Raft",
		On:        backends.Etcd,
		ConfigKey: "etcd",
		Open:      openEtcd,
		Config:    etcdDefaults,
		Baselines: map[string]func(*backends.Spec){
			"etcd":      etcdMode(ModeClient, false),
			"etcd-wait": etcdMode(ModeClient, true),
			"etcd-rpc":  etcdMode(ModeRPC, false),
		},
		Check:   func(s backends.Spec) error { return etcdConfig(s).Validate() },
		Variant: etcdVariant,
	})
}

// etcdDefaults are the etcd settings a run starts from, without the TTL
// (the run's, Spec.Redlock.TTL): what the settings hold round-trips
// through JSON.
func etcdDefaults() any {
	c := DefaultConfig()
	c.TTL = 0
	return &c
}

// etcdMode is a baseline row's mode.
func etcdMode(mode string, wait bool) func(*backends.Spec) {
	return func(s *backends.Spec) { backends.Update(s, func(c *Config) { c.Mode, c.Wait = mode, wait }) }
}

// etcdConfig is the Spec's etcd settings with the run's TTL.
func etcdConfig(s backends.Spec) Config {
	c := backends.Settings[Config](s)
	c.TTL = s.Redlock.TTL
	return c
}

func openEtcd(ctx context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	if len(at.Etcd) == 0 {
		return nil, errors.New("backend etcd: no etcd members (compose did not start any)")
	}
	c := etcdConfig(s)
	c.Access = at.EtcdAccess
	return New(ctx, at.Etcd, c)
}

// etcdVariant names the mode: client (TryLock), client-wait, rpc; with
// "+cycle" when a session is paid per cycle and "+ttl" without keep-alive.
func etcdVariant(s backends.Spec) string {
	c := backends.Settings[Config](s)
	v := c.Mode
	if c.Wait {
		v += "-wait"
	}
	switch {
	case !c.KeepAlive:
		v += "+ttl"
	case c.SessionPerCycle:
		v += "+cycle"
	}
	return v
}
