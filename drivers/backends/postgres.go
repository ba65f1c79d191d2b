package backends

import (
	"context"
	"errors"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/pglock"
)

func init() {
	Register(Backend{
		Name:      "postgres",
		Describe:  "PostgreSQL advisory locks over pgx: pg_try_advisory_lock on a held session (--pg-mode session) or pg_try_advisory_xact_lock in a transaction (xact)",
		On:        Postgres,
		Servers:   1,
		ConfigKey: "postgres",
		Open:      openPostgres,
		Config:    pgDefaults,
		Baselines: map[string]func(*Spec){
			"postgres":      pgMode(pglock.ModeSession),
			"postgres-xact": pgMode(pglock.ModeXact),
		},
		Check: func(s Spec) error { return pgConfig(s).Validate() },
		Variant: func(s Spec) string {
			c := Settings[pglock.Config](s)
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
	c := pglock.DefaultConfig()
	c.TTL = 0
	return &c
}

// pgMode is a baseline row's mode, trying once.
func pgMode(mode string) func(*Spec) {
	return func(s *Spec) {
		c := Settings[pglock.Config](*s)
		c.Mode, c.Wait = mode, false
		SetSettings(s, c)
	}
}

// pgConfig is the Spec's postgres settings with the run's TTL.
func pgConfig(s Spec) pglock.Config {
	c := Settings[pglock.Config](s)
	c.TTL = s.Redlock.TTL
	return c
}

func openPostgres(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if at.Postgres == "" {
		return nil, errors.New("backend postgres: no PostgreSQL server (compose did not start one)")
	}
	return pglock.New(ctx, at.Postgres, pgConfig(s), s.Workers+1)
}
