package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads"
)

// measured is one cell's outcome: the JSON row and the registry behind it
// (for interval logs).
type measured struct {
	Run      results.Run
	Registry *results.Registry
}

// measureCell opens the configured Locker on topo, drives the workload and
// fills a results.Run. A ctx canceled mid-run yields what was measured with
// Interrupted set, not an error.
func measureCell(ctx context.Context, cfg RunConfig, topo *compose.Topology) (measured, error) {
	spec := cfg.Driver
	spec.Workers = cfg.Workload.Workers
	spec.RedisAddrs = topo.RedisAddrs
	locker, err := backends.Open(ctx, spec)
	if err != nil {
		return measured{}, err
	}
	defer locker.Close()

	name := cfg.runName()
	reg := results.NewRegistry(false)
	env := workloads.Env{Locker: locker, Registry: reg, Clock: results.NewClock()}
	if !cfg.Quiet {
		env.Progress = func(elapsed time.Duration, iv, total *results.Interval) {
			fmt.Fprintln(os.Stderr, results.ProgressLine(name, elapsed.Seconds(), iv, total))
		}
	}
	res, err := workloads.Run(ctx, cfg.Workload, env)
	if err != nil {
		return measured{}, err
	}
	run := results.Run{
		Name: name, Backend: spec.Backend, Client: spec.Client, Mux: spec.Mux,
		Masters: len(topo.RedisAddrs), Workload: cfg.Workload.Workload, Keys: cfg.Workload.Keys,
		Workers: cfg.Workload.Workers, Interrupted: res.Interrupted, AllocsPerCycle: res.AllocsPerCycle,
	}
	if cfg.Workload.Workload == "uncontended" {
		run.Keys = 0
	}
	run.Fill(reg.Total())
	return measured{Run: run, Registry: reg}, nil
}
