package backends

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/single"
)

func init() {
	Register(Backend{
		Name: "single",
		Describe: "single-instance Redis lock (Redlock N=1) on a master with one replica, found through redis-sentinel; " +
			"--wait-replicas K sends WAIT K before a grant counts",
		On:      Sentinel,
		Servers: 1,
		Open:    openSingle,
		Config: func() any {
			return &single.Config{WaitTimeout: 100 * time.Millisecond}
		},
		ConfigKey: "single",
		Baselines: map[string]func(*Spec){
			"single":      waitReplicas(0),
			"single-wait": waitReplicas(1),
		},
		Check:   func(s Spec) error { return singleConfig(s).Validate() },
		Variant: func(s Spec) string { return fmt.Sprintf("wait%d", Settings[single.Config](s).WaitReplicas) },
	})
}

// waitReplicas is a baseline row's WAIT K.
func waitReplicas(k int) func(*Spec) {
	return func(s *Spec) {
		c := Settings[single.Config](*s)
		c.WaitReplicas = k
		SetSettings(s, c)
	}
}

// singleConfig is the Spec's single settings with the run's Redlock
// settings.
func singleConfig(s Spec) single.Config {
	c := Settings[single.Config](s)
	c.Redlock = s.Redlock
	return c
}

func openSingle(_ context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if len(at.Sentinel.Sentinels) == 0 {
		return nil, errors.New("backend single: no redis-sentinel (compose did not start one)")
	}
	return single.New(at.Sentinel, singleConfig(s), s.Workers)
}
