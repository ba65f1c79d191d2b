package backends

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/single"
)

// SingleConfig is the single backend's settings.
type SingleConfig struct {
	// WaitReplicas: WAIT K after the SET before a grant counts;
	// WaitTimeout is WAIT's timeout.
	WaitReplicas int           `json:"wait_replicas,omitempty" flag:"wait-replicas" help:"single: WAIT K replicas after the SET before a grant counts (0: no WAIT)"`
	WaitTimeout  time.Duration `json:"wait_timeout,omitempty" flag:"wait-timeout" help:"single: WAIT's timeout"`
}

func init() {
	Register(Backend{
		Name: "single",
		Describe: "single-instance Redis lock (Redlock N=1) on a master with one replica, found through redis-sentinel; " +
			"--wait-replicas K sends WAIT K before a grant counts",
		On:      Sentinel,
		Servers: 1,
		Open:    openSingle,
		Baselines: map[string]func(*Spec){
			"single":      func(s *Spec) { s.WaitReplicas = 0 },
			"single-wait": func(s *Spec) { s.WaitReplicas = 1 },
		},
		Defaults: func(s *Spec) { s.WaitTimeout = 100 * time.Millisecond },
		Check:    func(s Spec) error { return singleConfig(s).Validate() },
		Variant:  func(s Spec) string { return fmt.Sprintf("wait%d", s.WaitReplicas) },
	})
}

func singleConfig(s Spec) single.Config {
	return single.Config{Redlock: s.Redlock, WaitReplicas: s.WaitReplicas, WaitTimeout: s.WaitTimeout}
}

func openSingle(_ context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if len(at.Sentinel.Sentinels) == 0 {
		return nil, errors.New("backend single: no redis-sentinel (compose did not start one)")
	}
	return single.New(at.Sentinel, singleConfig(s), s.Workers)
}
