package lab

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads"
	"github.com/lockbench/lockbench/workloads/measure"
)

// Cell is one measured cell: the JSON row and what lies behind it.
type Cell struct {
	Run      schema.Run
	Registry *record.Registry    // the histograms
	Hlog     *record.IntervalLog // one interval per second per op, for interval logs
	// Merged are the interval logs of a cell several processes measured
	// together, merged (rundir.Merge), in place of Hlog and Registry.
	Merged record.RunLogs
}

// Progress is told where a cell is: as it begins, once a second, and at
// its end. The CLI's progress line is one.
type Progress interface {
	Begin(name string, warmup time.Duration)
	Tick(elapsed time.Duration, iv, total *record.Interval)
	End(run schema.Run)
}

// Observers are what watches a cell besides the result; every field may
// be nil.
type Observers struct {
	// Log receives fault events and warnings about the cell (nil: quiet).
	Log io.Writer
	// Progress is told the cell's phases and per-second figures.
	Progress Progress
	// Metrics exports the cell's counters on the tick (--metrics-addr).
	Metrics *prom.Exporter
	// Barrier and Referee are passed to the measurement (measure.Hooks):
	// several generators' start barrier and grant log.
	Barrier func(ctx context.Context) (time.Time, error)
	Referee func(workloads.Judge) workloads.Judge
}

// Measure opens cfg's Locker on the lab's servers (behind a delay line
// when cfg adds a distance or a latency fault, behind fault proxies for
// partitions and resets), measures it with
// workloads/measure and adds what the lab knows: the cell's names, errors
// per master, cost per cycle and the fault report. A ctx canceled mid-run
// yields what was measured with Interrupted set, not an error.
func (l *Lab) Measure(ctx context.Context, cfg Config, obs Observers) (Cell, error) {
	spec := cfg.Driver
	spec.Workers = cfg.Workload.Workers
	fr, addrs, err := l.openFaults(cfg, obs.Log)
	if err != nil {
		return Cell{}, err
	}
	defer fr.finish(nil)
	at := l.Endpoints()
	at.Masters = addrs
	if err := fr.route(&at); err != nil { // the fault proxies, for etcd, ZooKeeper, PostgreSQL
		return Cell{}, err
	}
	locker, err := backends.Open(ctx, spec, at)
	if err != nil {
		return Cell{}, err
	}
	defer locker.Close()
	locker, errLog := withErrorLog(locker)

	name := cfg.Name()
	hooks := measure.Hooks{Barrier: obs.Barrier, Referee: obs.Referee}
	if obs.Progress != nil {
		obs.Progress.Begin(name, cfg.Workload.Warmup)
		hooks.Progress = obs.Progress.Tick
	}
	hlog := record.NewIntervalLog()
	violations := func() int64 { return 0 }
	hooks.Violations = func(live func() int64) { violations = live }
	masters := l.Masters(spec)
	cellMetrics := obs.Metrics.Cell(prom.Labels{Backend: spec.Backend, Client: spec.Client, Mux: spec.Mux,
		Workload: cfg.Workload.Workload, Masters: masters}, cfg.Workload.Workers)
	defer cellMetrics.Done()
	hooks.OnInterval = fr.observe(func(iv *record.Interval) {
		hlog.Add(iv)
		// On the tick, never per sample.
		cellMetrics.Observe(iv, violations())
		if cellMetrics != nil {
			cellMetrics.ObserveMasters(metricMasterErrors(errLog, l.Topo.RedisAddrs, spec.Backend))
		}
	})
	hooks.Stalls = fr.clientStalls()
	server, closeServer := serverCPU(l.Topo)
	defer closeServer()
	cw := &costWindow{server: server, delay: fr.delayCPU()}
	hooks.OnWindow = cw.edge
	probe := procstat.SharedMemoryProbe()
	before := probe.Measure()
	// The schedule's times count from the load's start: begun before the
	// probe, a fault would come as much earlier in the load as the probe
	// took (on a loaded host, past the warmup's end).
	fr.start(ctx)
	m, err := measure.Measure(ctx, fr.wrap(locker), cfg.Workload, hooks)
	if err != nil {
		return Cell{}, err
	}
	after := probe.Measure()
	run := m.Run
	run.Name, run.Backend, run.Client, run.Mux = name, spec.Backend, spec.Client, spec.Mux
	run.Masters, run.Durability = masters, durability(cfg, masters)
	run.AddedRTTUS = float64(cfg.RTT.Microseconds())
	run.DelayRelayUS = fr.relayUS()
	run.MemoryProbeNS = probeFigure(before, after)
	if n := cfg.DistanceName(); n != "" && !strings.Contains(run.Name, "/"+n) {
		run.Name += "/" + n
	}
	if run.NothingMeasured && obs.Log != nil {
		fmt.Fprintf(obs.Log, "lockbench: %s: interrupted during the warmup: nothing was measured\n", name)
	}
	total := m.Registry.Total()
	labels := l.Topo.RedisAddrs
	if _, ok := errLog.(errorCapture); ok {
		labels = []string{spec.Backend}
	}
	run.ErrorsByMaster = masterErrors(errLog.Errors(), labels, total.Start, total.End)
	if _, ok := errLog.(errorCapture); ok {
		run.ErrorsByMaster = silentServer(run, spec.Backend)
	}
	run.Cost = cw.cost(run.Counts.Cycles)
	if c := run.Cost; c != nil && c.ServerCPUError != "" && obs.Log != nil {
		fmt.Fprintf(obs.Log, "lockbench: %s: the masters' CPU was not read (no server µs per cycle): %s\n", name, c.ServerCPUError)
	}
	fr.finish(&run) // the fault report: specs, events, availability timeline
	if p := m.Result.Pacing; p != nil && p.Scheduled > 0 && float64(p.Missed) > 0.01*float64(p.Scheduled) && obs.Log != nil {
		fmt.Fprintf(obs.Log, "lockbench: %s: %d of %d scheduled starts missed (%d late > 1 ms, %d never begun, max lag %.1f ms): --workers %d did not keep --rate %g\n",
			name, p.Missed, p.Scheduled, p.Late, p.Unstarted, p.MaxLagUS/1e3, cfg.Workload.Workers, p.Rate)
	}
	if obs.Progress != nil {
		obs.Progress.End(run)
	}
	return Cell{Run: run, Registry: m.Registry, Hlog: hlog}, nil
}
