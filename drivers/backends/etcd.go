package backends

import (
	"context"
	"errors"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/etcdlock"
)

func init() {
	Register(Backend{
		Name:      "etcd",
		Describe:  "etcd lock baseline: concurrency.Mutex (--etcd-mode client) or the v3lock RPCs (rpc); every step goes through Raft",
		On:        Etcd,
		ConfigKey: "etcd",
		Open:      openEtcd,
		Config:    etcdDefaults,
		Baselines: map[string]func(*Spec){
			"etcd":      etcdMode(etcdlock.ModeClient, false),
			"etcd-wait": etcdMode(etcdlock.ModeClient, true),
			"etcd-rpc":  etcdMode(etcdlock.ModeRPC, false),
		},
		Check:   func(s Spec) error { return etcdConfig(s).Validate() },
		Variant: etcdVariant,
	})
}

// etcdDefaults are the etcd settings a run starts from, without the TTL
// (the run's, Spec.Redlock.TTL): what the settings hold round-trips
// through JSON.
func etcdDefaults() any {
	c := etcdlock.DefaultConfig()
	c.TTL = 0
	return &c
}

// etcdMode is a baseline row's mode.
func etcdMode(mode string, wait bool) func(*Spec) {
	return func(s *Spec) {
		c := Settings[etcdlock.Config](*s)
		c.Mode, c.Wait = mode, wait
		SetSettings(s, c)
	}
}

// etcdConfig is the Spec's etcd settings with the run's TTL.
func etcdConfig(s Spec) etcdlock.Config {
	c := Settings[etcdlock.Config](s)
	c.TTL = s.Redlock.TTL
	return c
}

func openEtcd(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if len(at.Etcd) == 0 {
		return nil, errors.New("backend etcd: no etcd members (compose did not start any)")
	}
	c := etcdConfig(s)
	c.Access = at.EtcdAccess
	return etcdlock.New(ctx, at.Etcd, c)
}

// etcdVariant names the mode: client (TryLock), client-wait, rpc; with
// "+cycle" when a session is paid per cycle and "+ttl" without keep-alive.
func etcdVariant(s Spec) string {
	c := Settings[etcdlock.Config](s)
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

// etcdTTL is the lease TTL etcd will be asked for, for messages.
func etcdTTL(s Spec) time.Duration {
	return time.Duration(etcdConfig(s).TTLSeconds()) * time.Second
}
