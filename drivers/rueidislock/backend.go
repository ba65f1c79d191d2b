package rueidislock

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

func init() {
	backends.Register(backends.Backend{
		Name:      "rueidislock",
		Describe:  "redis/rueidis rueidislock as its README runs it: one client on the first master, KeyMajority 1, auto-extended locks",
		On:        backends.Redis,
		Servers:   1, // the first master
		Extends:   true,
		Open:      openRueidislock,
		Baselines: map[string]func(*backends.Spec){"rueidislock": func(*backends.Spec) {}},
	})
}

func openRueidislock(_ context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	if len(at.Masters) == 0 {
		return nil, errors.New("backend rueidislock: no Redis master")
	}
	// One endpoint: rueidislock spreads KeyMajority*2-1 keys over one
	// client, it does not run Redlock over independent masters.
	return New(Config{Master: at.Masters[0], TTL: s.Redlock.TTL, KeyMajority: 1})
}
