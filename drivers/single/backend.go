package single

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

func init() {
	backends.Register(backends.Backend{
		Name: "single",
		Describe: "single-instance Redis lock (Redlock N=1) on a master with one replica, found through redis-sentinel; " +
			"--wait-replicas K sends WAIT K before a grant counts",
		On:      backends.Sentinel,
		Servers: 1,
		Open:    openSingle,
		Config: func() any {
			return &Config{WaitTimeout: 100 * time.Millisecond}
		},
		ConfigKey: "single",
		Baselines: map[string]func(*backends.Spec){
			"single":      waitReplicas(0),
			"single-wait": waitReplicas(1),
		},
		Check:   func(s backends.Spec) error { return singleConfig(s).Validate() },
		Variant: func(s backends.Spec) string { return fmt.Sprintf("wait%d", backends.Settings[Config](s).WaitReplicas) },
	})
}

// waitReplicas is a baseline row's WAIT K.
func waitReplicas(k int) func(*backends.Spec) {
	return func(s *backends.Spec) { backends.Update(s, func(c *Config) { c.WaitReplicas = k }) }
}

// singleConfig is the Spec's single settings with the run's Redlock
// settings.
func singleConfig(s backends.Spec) Config {
	c := backends.Settings[Config](s)
	c.Redlock = s.Redlock
	return c
}

func openSingle(_ context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	if len(at.Sentinel.Sentinels) == 0 {
		return nil, errors.New("backend single: no redis-sentinel (compose did not start one)")
	}
	return New(at.Sentinel, singleConfig(s), s.Workers)
}
