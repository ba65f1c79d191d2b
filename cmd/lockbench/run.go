package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results"
)

func newRunCmd() *cobra.Command {
	cfg := defaultRunConfig()
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run one backend/client/strategy/workload cell and report its latencies",
		Long: `run starts the servers it needs (or dials --redis), drives lock cycles for
--warmup + --duration, prints a progress line each second and a table at the
end, and writes the summary JSON (--json) and interval logs (--out).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := cfg.validate(); err != nil {
				return err
			}
			cfg.setIO(cmd)
			return runOne(cmd.Context(), cfg)
		},
	}
	fs := cmd.Flags()
	bindDriver(fs, &cfg)
	bindTopology(fs, &cfg)
	bindEtcd(fs, &cfg)
	bindPeers(fs, &cfg)
	bindBackends(fs, &cfg)
	bindWorkload(fs, &cfg)
	bindOutput(fs, &cfg)
	bindDisplay(fs, &cfg)
	bindFaults(fs, &cfg)
	return cmd
}

// runOne is `lockbench run`: up, measure, write, down.
func runOne(ctx context.Context, cfg RunConfig) error {
	started := time.Now()
	stopMetrics, err := startMetrics(&cfg)
	if err != nil {
		return err
	}
	defer stopMetrics()
	topo, err := upTopology(ctx, cfg.Topology, cfg.Quiet, cfg.errOut())
	if err != nil {
		return upError(ctx, err)
	}
	defer topo.Close()
	sum, err := results.NewSummary(started, cfg)
	if err != nil {
		return err
	}
	sum.Versions = withServerVersions(ctx, sum.Versions, topo)
	sum.Servers = withServers(sum.Servers, topo, &cfg)
	m, err := measureCell(ctx, cfg, topo)
	if err != nil {
		if ctx.Err() != nil {
			return errInterruptedEarly // e.g. while the driver dialed
		}
		return err
	}
	sum.Runs = []results.Run{m.Run}
	sum.Interrupted = ctx.Err() != nil
	if err := writeResults(cfg, sum, []measured{m}); err != nil {
		return err
	}
	if sum.Interrupted {
		return errInterrupted
	}
	return checkFailures(cfg.errOut(), cfg, sum.Runs)
}

// upError classifies a failed compose.Up: Ctrl-C during start-up is an
// interruption before anything was measured, an unreachable server given by
// flag is bad input.
func upError(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return errInterruptedEarly
	case errors.Is(err, compose.ErrUnreachable):
		return usageError{err}
	}
	return err
}

// writeResults prints the table and writes --json and --out.
func writeResults(cfg RunConfig, sum *results.Summary, cells []measured) error {
	switch {
	case cfg.Format == "gobench":
		if err := results.WriteGoBench(cfg.out(), sum); err != nil {
			return err
		}
	case cfg.Format == "csv":
		if err := results.WriteCSV(cfg.out(), sum.Runs); err != nil {
			return err
		}
	case cfg.JSON != "-":
		if err := results.WriteTable(cfg.out(), sum.Runs, tableOptions(cfg)); err != nil {
			return err
		}
	}
	if cfg.JSON != "" {
		if err := sum.WriteJSONTo(cfg.out(), cfg.JSON); err != nil {
			return fmt.Errorf("--json %q: %w", cfg.JSON, err)
		}
	}
	if cfg.Out != "" {
		if err := writeOutDir(cfg.Out, sum, cells); err != nil {
			return fmt.Errorf("--out %q: %w", cfg.Out, err)
		}
	}
	return nil
}

// withServerVersions adds the servers' own versions.
func withServerVersions(ctx context.Context, v map[string]string, topo *compose.Topology) map[string]string {
	if len(topo.Servers) > 0 {
		v["redis-server"] = topo.Servers[0].Version
	}
	if len(topo.EtcdAddrs) > 0 {
		if s, err := compose.EtcdVersion(ctx, topo.EtcdAddrs[0], topo.EtcdAccess); err == nil {
			v["etcd-server"] = s
		}
	}
	return v
}
