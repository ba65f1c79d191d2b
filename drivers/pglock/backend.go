package pglock

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
)

func init() {
	backends.Register(backends.Backend{
		Name:      "postgres",
		Describe:  "PostgreSQL advisory locks over pgx: pg_try_advisory_lock on a held session (--pg-mode session) or pg_try_advisory_xact_lock in a transaction (xact)",
		On:        backends.Postgres,
		Servers:   1,
		ConfigKey: "postgres",
		Open:      openPostgres,
		Config:    pgDefaults,
		Baselines: map[string]func(*backends.Spec){
			"postgres":      pgMode(ModeSession),
			"postgres-xact": pgMode(ModeXact),
		},
		Check: func(s backends.Spec) error { return pgConfig(s).Validate() },
		Variant: func(s backends.Spec) string {
			c := backends.Settings[Config](s)
			if c.Wait {
				return c.Mode + "-wait"
			}
			return c.Mode
		},
	})
}

// pgDefaults are the postgres settings a run starts from, without the
// TTL (the run's, Spec.Redlock.TTL): what the settings hold round-trips
// through JSON.
func pgDefaults() any {
	c := DefaultConfig()
	c.TTL = 0
	return &c
}

// pgMode is a baseline row's mode, trying once.
func pgMode(mode string) func(*backends.Spec) {
	return func(s *backends.Spec) { backends.Update(s, func(c *Config) { c.Mode, c.Wait = mode, false }) }
}

// pgConfig is the Spec's postgres settings with the run's TTL.
func pgConfig(s backends.Spec) Config {
	c := backends.Settings[Config](s)
	c.TTL = s.Redlock.TTL
	return c
}

func openPostgres(ctx context.Context, s backends.Spec, at backends.Endpoints) (drivers.Locker, error) {
	if at.Postgres == "" {
		return nil, errors.New("backend postgres: no PostgreSQL server (compose did not start one)")
	}
	return New(ctx, at.Postgres, pgConfig(s), s.Workers+1)
}
