package main

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/results"
)

// bindFaults registers --fault. A StringArray, not a slice: "masters=1,2"
// keeps its comma.
func bindFaults(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringArrayVar(&c.Faults, "fault", nil, "inject a fault during the run (repeatable), e.g. kill:masters=3:at=5s:restart=immediate|delayed|never, "+
		"stop:masters=1:at=5s:for=2s, latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s, partition:masters=1,2:at=5s:for=3s, reset:masters=1:at=5s; "+
		"at counts from the start of the load (warmup included), durations may be ttl-relative (ttl+1s)")
}

// validateFaults parses every --fault against the topology the run will have.
func (c *RunConfig) validateFaults() error {
	if len(c.Faults) == 0 {
		return nil
	}
	fs, _, err := faults.ParseAll(c.Faults)
	if err != nil {
		return usageError{err}
	}
	if c.Topology.NoRedis {
		return usagef("--fault: backend %s uses no Redis masters", c.Driver.Backend)
	}
	local := len(c.Topology.RedisAddrs) == 0
	for _, f := range fs {
		if err := f.Check(c.Topology.Redis.Masters, local); err != nil {
			return usageError{err}
		}
	}
	return nil
}

// faultRun is the faults of one cell: proxies opened before the driver
// dials, a schedule started with the load, and the availability timeline
// (acquisitions per interval) that shows what the faults did.
type faultRun struct {
	faults  []faults.Fault
	target  faults.Target
	sched   *faults.Schedule
	started time.Time

	mu       sync.Mutex
	timeline []availability
}

// availability is one merged interval of the run, seen from the faults.
type availability struct {
	FromS    float64 `json:"from_s"` // since the load started
	ToS      float64 `json:"to_s"`
	Acquired int64   `json:"acquired"`
	Attempts int64   `json:"attempts"`
}

// openFaults parses cfg.Faults and, when a network fault is asked for, puts
// proxies in front of the masters: addrs is what the driver must dial. nil
// when the run has no faults.
func openFaults(cfg RunConfig, topo *compose.Topology) (fr *faultRun, addrs []string, err error) {
	if len(cfg.Faults) == 0 {
		return nil, topo.RedisAddrs, nil
	}
	fs, proxied, err := faults.ParseAll(cfg.Faults)
	if err != nil {
		return nil, nil, usageError{err}
	}
	fr = &faultRun{faults: fs, target: faults.Target{TTL: cfg.Driver.Redlock.TTL}}
	if !cfg.Quiet {
		fr.target.Log = os.Stderr
	}
	if topo.Redis != nil {
		fr.target.Servers = topo.Redis.Servers
	}
	addrs = topo.RedisAddrs
	if proxied {
		p, err := compose.StartProxies(topo.RedisAddrs)
		if err != nil {
			return nil, nil, err
		}
		fr.target.Proxies = p
		addrs = p.Addrs()
	}
	return fr, addrs, nil
}

// start begins the schedule; call it as the load starts.
func (fr *faultRun) start(ctx context.Context) {
	if fr == nil {
		return
	}
	fr.started = time.Now()
	fr.sched = faults.Start(ctx, fr.faults, fr.target)
}

// observe wraps the interval sink to keep the availability timeline.
func (fr *faultRun) observe(next func(*results.Interval)) func(*results.Interval) {
	if fr == nil {
		return next
	}
	return func(iv *results.Interval) {
		a := availability{
			FromS: iv.Start.Sub(fr.started).Seconds(), ToS: iv.End.Sub(fr.started).Seconds(),
			Acquired: iv.Count(results.OpAcquire, results.OK), Attempts: iv.Total(results.OpAcquire),
		}
		fr.mu.Lock()
		fr.timeline = append(fr.timeline, a)
		fr.mu.Unlock()
		if next != nil {
			next(iv)
		}
	}
}

// faultReport is Extra["faults"] of a run.
type faultReport struct {
	Specs    []faults.Fault `json:"specs"`
	Events   []faults.Event `json:"events"`
	Timeline []availability `json:"timeline"`
}

// finish stops the schedule (healing what is still broken), closes the
// proxies and records what happened into run.Extra["faults"].
func (fr *faultRun) finish(run *results.Run) {
	if fr == nil {
		return
	}
	var events []faults.Event
	if fr.sched != nil {
		events = fr.sched.Stop()
	}
	if fr.target.Proxies != nil {
		_ = fr.target.Proxies.Close()
	}
	if run == nil {
		return
	}
	if run.Extra == nil {
		run.Extra = map[string]any{}
	}
	fr.mu.Lock()
	run.Extra["faults"] = faultReport{Specs: fr.faults, Events: events, Timeline: fr.timeline}
	fr.mu.Unlock()
}
