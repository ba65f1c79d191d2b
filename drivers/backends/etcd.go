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
		Baselines: map[string]func(*Spec){
			"etcd":      func(s *Spec) { s.Etcd.Mode, s.Etcd.Wait = etcdlock.ModeClient, false },
			"etcd-wait": func(s *Spec) { s.Etcd.Mode, s.Etcd.Wait = etcdlock.ModeClient, true },
			"etcd-rpc":  func(s *Spec) { s.Etcd.Mode, s.Etcd.Wait = etcdlock.ModeRPC, false },
		},
		Defaults: func(s *Spec) { s.Etcd = etcdlock.DefaultConfig() },
		Check:    func(s Spec) error { return etcdConfig(s).Validate() },
		Variant:  etcdVariant,
	})
}

// etcdConfig is s.Etcd with the run's TTL.
func etcdConfig(s Spec) etcdlock.Config {
	c := s.Etcd
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
	v := s.Etcd.Mode
	if s.Etcd.Wait {
		v += "-wait"
	}
	switch {
	case !s.Etcd.KeepAlive:
		v += "+ttl"
	case s.Etcd.SessionPerCycle:
		v += "+cycle"
	}
	return v
}

// etcdTTL is the lease TTL etcd will be asked for, for messages.
func etcdTTL(s Spec) time.Duration {
	return time.Duration(etcdConfig(s).TTLSeconds()) * time.Second
}
