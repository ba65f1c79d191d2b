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
		Baselines: map[string]func(*Spec){
			"postgres":      func(s *Spec) { s.Postgres.Mode, s.Postgres.Wait = pglock.ModeSession, false },
			"postgres-xact": func(s *Spec) { s.Postgres.Mode, s.Postgres.Wait = pglock.ModeXact, false },
		},
		Defaults: func(s *Spec) { s.Postgres = pglock.DefaultConfig() },
		Check:    func(s Spec) error { return pgConfig(s).Validate() },
		Variant: func(s Spec) string {
			if s.Postgres.Wait {
				return s.Postgres.Mode + "-wait"
			}
			return s.Postgres.Mode
		},
	})
}

func pgConfig(s Spec) pglock.Config {
	c := s.Postgres
	c.TTL = s.Redlock.TTL
	return c
}

func openPostgres(ctx context.Context, s Spec, at Endpoints) (drivers.Locker, error) {
	if at.Postgres == "" {
		return nil, errors.New("backend postgres: no PostgreSQL server (compose did not start one)")
	}
	return pglock.New(ctx, at.Postgres, pgConfig(s), s.Workers+1)
}
