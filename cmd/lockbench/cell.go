package main

import (
	"context"
	"fmt"
	"os"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads"
)

// measured is one cell's outcome: the JSON row and the registry behind it
// (for interval logs).
type measured struct {
	Run      results.Run
	Registry *results.Registry
	Hlog     *results.IntervalLog // one interval per second per op, for --out
}

// measureCell opens the configured Locker on topo, drives the workload and
// fills a results.Run. A ctx canceled mid-run yields what was measured with
// Interrupted set, not an error.
func measureCell(ctx context.Context, cfg RunConfig, topo *compose.Topology) (measured, error) {
	spec := cfg.Driver
	spec.Workers = cfg.Workload.Workers
	fr, addrs, err := openFaults(cfg, topo) // proxies, when a network fault is asked for
	if err != nil {
		return measured{}, err
	}
	defer fr.finish(nil)
	spec.Masters = addrs
	spec.EtcdAddrs = topo.EtcdAddrs
	spec.Etcd.Access = topo.EtcdAccess
	withBackendAddrs(&spec, topo)
	locker, err := backends.Open(ctx, spec)
	if err != nil {
		return measured{}, err
	}
	defer locker.Close()
	locker, errLog := withErrorLog(locker)

	name := cfg.runName()
	reg := results.NewRegistry(cfg.Workload.Rate > 0) // open loop: keep service time apart
	clock := results.NewClock()
	referee := results.NewReferee(cfg.Workload.Workers, clock, 0)
	env := workloads.Env{Locker: fr.wrap(locker), Registry: reg, Clock: clock, Referee: referee, Stalls: fr.clientStalls()}
	prog := cfg.progress
	if !cfg.Quiet {
		if prog == nil {
			prog = newProgress(1, 0)
		}
		prog.begin(name, cfg.Workload.Warmup)
		env.Progress = prog.tick
	}
	hlog := results.NewIntervalLog()
	cellMetrics := cfg.metrics.Cell(prom.Labels{Backend: spec.Backend, Client: spec.Client, Mux: spec.Mux,
		Workload: cfg.Workload.Workload, Masters: cellMasters(spec, topo)}, cfg.Workload.Workers)
	defer cellMetrics.Done()
	env.OnInterval = fr.observe(func(iv *results.Interval) {
		hlog.Add(iv)
		// On the tick, never per sample.
		cellMetrics.Observe(iv, referee.Violations())
		if cellMetrics != nil {
			cellMetrics.ObserveMasters(metricMasterErrors(errLog, topo.RedisAddrs, spec.Backend))
		}
	})
	server, closeServer := serverCPU(topo)
	defer closeServer()
	cw := &costWindow{server: server}
	env.OnWindow = cw.edge
	fr.start(ctx)
	res, err := workloads.Run(ctx, cfg.Workload, env)
	if err != nil {
		return measured{}, err
	}
	run := results.Run{
		Name: name, Backend: spec.Backend, Client: spec.Client, Mux: spec.Mux,
		Masters: cellMasters(spec, topo), Workload: cfg.Workload.Workload, Keys: cfg.Workload.Keys,
		Workers: cfg.Workload.Workers, Interrupted: res.Interrupted, AllocsPerCycle: res.AllocsPerCycle,
		NothingMeasured: res.NothingMeasured,
		AddedRTTUS:      float64(cfg.RTT.Microseconds()),
	}
	if res.NothingMeasured {
		fmt.Fprintf(os.Stderr, "lockbench: %s: interrupted during the warmup: nothing was measured\n", name)
	}
	if cfg.Workload.Workload == "uncontended" {
		run.Keys = 0
	}
	total := reg.Total()
	run.Fill(total)
	labels := topo.RedisAddrs
	if _, ok := errLog.(errorCapture); ok {
		labels = []string{spec.Backend}
	}
	run.ErrorsByMaster = masterErrors(errLog.Errors(), labels, total.Start, total.End)
	run.Cost = cw.cost(run.Counts.Cycles)
	run.FillReferee(referee.Report())
	fr.finish(&run) // Extra["faults"]: specs, events, availability timeline
	run.Rate = cfg.Workload.Rate
	if p := res.Pacing; p != nil {
		run.MissedStarts = p.Missed
		run.Extra["pacing"] = p // Extra was made by FillReferee
		if p.Scheduled > 0 && float64(p.Missed) > 0.01*float64(p.Scheduled) {
			fmt.Fprintf(os.Stderr, "lockbench: %s: %d of %d scheduled starts missed (%d late > 1 ms, %d never begun, max lag %.1f ms): --workers %d did not keep --rate %g\n",
				name, p.Missed, p.Scheduled, p.Late, p.Unstarted, p.MaxLagUS/1e3, cfg.Workload.Workers, p.Rate)
		}
	}
	if !cfg.Quiet {
		prog.end(run)
	}
	return measured{Run: run, Registry: reg, Hlog: hlog}, nil
}
