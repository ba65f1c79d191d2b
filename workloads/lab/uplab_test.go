package lab_test

import (
	"context"
	"testing"

	"github.com/lockbench/lockbench/workloads/lab"
)

// upLab validates cfg and starts its servers, stopped when t ends.
func upLab(t *testing.T, ctx context.Context, cfg lab.Config) *lab.Lab {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// measureCell measures one cell of cfg on servers of its own.
func measureCell(t *testing.T, ctx context.Context, cfg lab.Config, obs lab.Observers) lab.Cell {
	t.Helper()
	c, err := upLab(t, ctx, cfg).Measure(ctx, cfg, obs)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
