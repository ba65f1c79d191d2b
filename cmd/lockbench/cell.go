package main

import (
	"context"
	"io"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// openLab starts what a command measures on: --metrics-addr, the servers
// of c's topology (phases on stderr unless quiet) and the summary of
// config with the lab's server versions and facts. closeLab stops them.
func openLab(ctx context.Context, c *RunConfig, config any) (l *lab.Lab, sum *schema.Summary, closeLab func(), err error) {
	stopMetrics, err := startMetrics(c)
	if err != nil {
		return nil, nil, nil, err
	}
	if l, sum, err = lab.Open(ctx, c.Topology, c.log(), config); err != nil {
		stopMetrics()
		return nil, nil, nil, upError(ctx, err)
	}
	return l, sum, func() { l.Close(); stopMetrics() }, nil
}

// measureCell measures cfg on l with the CLI's observers: the progress
// line, the metrics exporter and warnings on stderr.
func measureCell(ctx context.Context, cfg RunConfig, l *lab.Lab) (lab.Cell, error) {
	return l.Measure(ctx, cfg.Config, cfg.observers())
}

// observers are the CLI's observers of one cell: phases and warnings on
// stderr, the metrics exporter, the progress line unless quiet.
func (c *RunConfig) observers() lab.Observers {
	obs := lab.Observers{Log: c.log(), Metrics: c.metrics}
	if !c.Quiet {
		obs.Progress = output.NewProgress(c.errOut(), 1, 0, false)
	}
	return obs
}

// log is where a cell's phases, fault events and warnings go: stderr, or
// nothing when quiet.
func (c *RunConfig) log() io.Writer { return c.Log(c.errOut()) }
