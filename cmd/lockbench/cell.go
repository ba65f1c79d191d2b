package main

import (
	"context"
	"fmt"
	"os"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/workloads/measure"
)

// measured is one cell's outcome: the JSON row and the registry behind it
// (for interval logs).
type measured struct {
	Run      results.Run
	Registry *results.Registry
	Hlog     *results.IntervalLog // one interval per second per op, for --out
}

// measureCell opens the configured Locker on topo (behind the fault
// proxies), measures it with workloads/measure and adds what only the CLI
// knows: the cell's names, errors per master, cost and the fault report. A ctx canceled mid-run yields what was measured with
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
	if err := fr.route(&spec); err != nil { // the fault proxies, for etcd, ZooKeeper, PostgreSQL
		return measured{}, err
	}
	locker, err := backends.Open(ctx, spec)
	if err != nil {
		return measured{}, err
	}
	defer locker.Close()
	locker, errLog := withErrorLog(locker)

	name := cfg.runName()
	var hooks measure.Hooks
	prog := cfg.progress
	if !cfg.Quiet {
		if prog == nil {
			prog = newProgress(1, 0)
		}
		prog.begin(name, cfg.Workload.Warmup)
		hooks.Progress = prog.tick
	}
	hlog := results.NewIntervalLog()
	violations := func() int64 { return 0 }
	hooks.Violations = func(live func() int64) { violations = live }
	cellMetrics := cfg.metrics.Cell(prom.Labels{Backend: spec.Backend, Client: spec.Client, Mux: spec.Mux,
		Workload: cfg.Workload.Workload, Masters: cellMasters(spec, topo)}, cfg.Workload.Workers)
	defer cellMetrics.Done()
	hooks.OnInterval = fr.observe(func(iv *results.Interval) {
		hlog.Add(iv)
		// On the tick, never per sample.
		cellMetrics.Observe(iv, violations())
		if cellMetrics != nil {
			cellMetrics.ObserveMasters(metricMasterErrors(errLog, topo.RedisAddrs, spec.Backend))
		}
	})
	hooks.Stalls = fr.clientStalls()
	server, closeServer := serverCPU(topo)
	defer closeServer()
	cw := &costWindow{server: server}
	hooks.OnWindow = cw.edge
	fr.start(ctx)
	m, err := measure.Measure(ctx, fr.wrap(locker), cfg.Workload, hooks)
	if err != nil {
		return measured{}, err
	}
	run := m.Run
	run.Name, run.Backend, run.Client, run.Mux = name, spec.Backend, spec.Client, spec.Mux
	run.Masters = cellMasters(spec, topo)
	run.AddedRTTUS = float64(cfg.RTT.Microseconds())
	if run.NothingMeasured {
		fmt.Fprintf(os.Stderr, "lockbench: %s: interrupted during the warmup: nothing was measured\n", name)
	}
	total := m.Registry.Total()
	labels := topo.RedisAddrs
	if _, ok := errLog.(errorCapture); ok {
		labels = []string{spec.Backend}
	}
	run.ErrorsByMaster = masterErrors(errLog.Errors(), labels, total.Start, total.End)
	run.Cost = cw.cost(run.Counts.Cycles)
	fr.finish(&run) // Extra["faults"]: specs, events, availability timeline
	if p := m.Result.Pacing; p != nil && p.Scheduled > 0 && float64(p.Missed) > 0.01*float64(p.Scheduled) {
		fmt.Fprintf(os.Stderr, "lockbench: %s: %d of %d scheduled starts missed (%d late > 1 ms, %d never begun, max lag %.1f ms): --workers %d did not keep --rate %g\n",
			name, p.Missed, p.Scheduled, p.Late, p.Unstarted, p.MaxLagUS/1e3, cfg.Workload.Workers, p.Rate)
	}
	if !cfg.Quiet {
		prog.end(run)
	}
	return measured{Run: run, Registry: m.Registry, Hlog: hlog}, nil
}
