package main

import (
	"context"
	"io"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads/lab"
)

// measured is one cell's outcome.
type measured = lab.Cell

// upLab starts cfg's servers, telling the phase on stderr unless quiet.
func upLab(ctx context.Context, spec compose.Spec, c *RunConfig) (*lab.Lab, error) {
	return lab.Up(ctx, spec, c.log())
}

// measureCell measures cfg on l with the CLI's observers: the progress
// line, the metrics exporter and warnings on stderr.
func measureCell(ctx context.Context, cfg RunConfig, l *lab.Lab) (measured, error) {
	obs := lab.Observers{Log: cfg.log(), Metrics: cfg.metrics}
	if !cfg.Quiet {
		p := cfg.progress
		if p == nil {
			p = newProgress(cfg.errOut(), 1, 0)
		}
		obs.Progress = p
	}
	return l.Measure(ctx, cfg.Config, obs)
}

// withLab adds the lab's server versions and facts to sum, telling the
// servers' warnings on stderr unless quiet.
func withLab(ctx context.Context, sum *results.Summary, l *lab.Lab, c *RunConfig) {
	sum.Versions = l.Versions(ctx, sum.Versions)
	sum.Servers = l.Servers(sum.Servers, c.log())
}

// log is where a cell's phases, fault events and warnings go: stderr, or
// nothing when quiet.
func (c *RunConfig) log() io.Writer {
	if c.Quiet {
		return nil
	}
	return c.errOut()
}
