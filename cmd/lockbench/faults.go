package main

import (
	"context"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/workloads"
)

// bindFaults registers --fault. A StringArray, not a slice: "masters=1,2"
// keeps its comma.
func bindFaults(fs *pflag.FlagSet, c *RunConfig) {
	fs.StringArrayVar(&c.Faults, "fault", nil, "inject a fault during the run (repeatable), e.g. kill:masters=3:at=5s:restart=immediate|delayed|never, "+
		"stop:masters=1:at=5s:for=2s, latency:masters=1,2:ms=20:jitter=5:at=5s:for=10s, partition:masters=1,2:at=5s:for=3s, reset:masters=1:at=5s, "+
		"pause-client:workers=1:at=2s:for=ttl+1s, clock-jump:masters=2:+5s[:at=2s][:for=3s]; "+
		"at counts from the start of the load (warmup included), durations may be ttl-relative (ttl+1s); "+
		"masters=N names the backend's servers: Redis masters, etcd members, the ZooKeeper or PostgreSQL server (1), single: master 1, replica 2")
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
	for _, f := range fs {
		servers, local, err := c.faultServers(f)
		if err != nil {
			return err
		}
		if err := f.Check(servers, c.Workload.Workers, local); err != nil {
			return usageError{err}
		}
		if end := c.Workload.Warmup + c.Workload.Duration; f.At.Resolve(c.Driver.Redlock.TTL) >= end {
			return usagef("--fault %q: at=%v is not before the end of the run (--warmup %v + --duration %v = %v)",
				f.Spec, f.At.Resolve(c.Driver.Redlock.TTL), c.Workload.Warmup, c.Workload.Duration, end)
		}
	}
	// Masters run under clockshift only when a clock jump needs it; the
	// config records it.
	c.Topology.Redis.ClockShift = faults.Has(fs, faults.ClockJump)
	return nil
}

// faultRun is the faults of one cell: proxies opened before the driver
// dials, a schedule started with the load, and the availability timeline
// (acquisitions per interval) that shows what the faults did.
type faultRun struct {
	faults  []faults.Fault
	target  faults.Target
	on      string // which servers masters=N names (faults.On*)
	sched   *faults.Schedule
	started time.Time
	done    bool // finished: a second finish is a no-op
	span    time.Duration
	grants  []atomic.Int64    // grants per grantBucket since started
	stalls  *workloads.Stalls // pause-client faults arm them; nil without

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
// proxies in front of the servers the backend dials: masters is what a
// Redis driver must dial (route redirects the other backends). nil when the
// run has no faults.
func openFaults(cfg RunConfig, topo *compose.Topology) (fr *faultRun, masters []redisconn.Endpoint, err error) {
	if len(cfg.Faults) == 0 && cfg.RTT == 0 {
		return nil, topo.Masters, nil
	}
	fs, proxied, err := faults.ParseAll(cfg.Faults)
	if err != nil {
		return nil, nil, usageError{err}
	}
	proxied = proxied || cfg.RTT > 0
	fr = &faultRun{faults: fs, target: faults.Target{TTL: cfg.Driver.Redlock.TTL}, span: cfg.Workload.Warmup + cfg.Workload.Ramp + cfg.Workload.Duration}
	if !cfg.Quiet {
		fr.target.Log = os.Stderr
	}
	fr.on = faultsOn(cfg.Driver.Backend)
	servers, upstreams, err := faults.Pick(topo, fr.on)
	if err != nil {
		return nil, nil, err
	}
	fr.target.Servers = servers
	if faults.Has(fs, faults.PauseClient) {
		fr.stalls = workloads.NewStalls(cfg.Workload.Workers)
		fr.target.Stall = fr.stalls.Arm
	}
	masters = topo.Masters
	if proxied { // plain TCP pass-through: TLS and AUTH travel inside it
		p, err := compose.StartProxies(upstreams)
		if err != nil {
			return nil, nil, err
		}
		fr.target.Proxies = p
		if fr.on == faults.OnRedis {
			masters = make([]redisconn.Endpoint, len(topo.Masters))
			for i, a := range p.Addrs() {
				masters[i] = topo.Masters[i].Via(a)
			}
		}
		if cfg.RTT > 0 {
			if err := p.AddDelay(cfg.RTT); err != nil {
				_ = p.Close()
				return nil, nil, err
			}
		}
	}
	return fr, masters, nil
}

// clientStalls is what the workload's Env.Stalls must be: the stalls the
// pause-client faults arm, nil when there are none.
func (fr *faultRun) clientStalls() *workloads.Stalls {
	if fr == nil {
		return nil
	}
	return fr.stalls
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
	// Recoveries: time from each repair to the next grant (10 ms resolution).
	Recoveries []recovery `json:"recoveries"`
	// LongestOutageMS: the longest time without any grant from the first
	// fault to the end of the load (10 ms resolution).
	LongestOutageMS float64 `json:"longest_outage_ms"`
	// Grants10ms: grants per 10 ms since the load started, up to the end
	// of the load: the availability timeline at fine grain.
	Grants10ms []int64 `json:"grants_10ms"`
	// Stalls: client pauses (pause-client) the workers performed.
	Stalls int64 `json:"stalls_performed,omitempty"`
}

// finish stops the schedule (healing what is still broken), closes the
// proxies and records what happened into run.Extra["faults"].
func (fr *faultRun) finish(run *results.Run) {
	if fr == nil || fr.done {
		return
	}
	fr.done = true
	var events []faults.Event
	if fr.sched != nil {
		events = fr.sched.Stop()
	}
	if fr.target.Proxies != nil {
		_ = fr.target.Proxies.Close()
	}
	if run == nil || len(fr.faults) == 0 { // only proxies for --rtt: nothing to report
		return
	}
	if run.Extra == nil {
		run.Extra = map[string]any{}
	}
	end := float64(time.Since(fr.started).Milliseconds())
	fr.mu.Lock()
	run.Extra["faults"] = faultReport{Specs: fr.faults, Events: events, Timeline: fr.timeline,
		Recoveries: fr.recoveries(events), LongestOutageMS: fr.longestOutageMS(events, end), Grants10ms: fr.grantCounts(end),
		Stalls: fr.stalls.Taken()}
	fr.mu.Unlock()
}

// grantBucket is the resolution of the grant timeline of a fault run.
const grantBucket = 10 * time.Millisecond

// wrap counts every grant into 10 ms buckets (one atomic add, no lock), for
// recovery times finer than the 1 s intervals. Runs without faults are not
// wrapped.
func (fr *faultRun) wrap(l drivers.Locker) drivers.Locker {
	if fr == nil {
		return l
	}
	fr.grants = make([]atomic.Int64, int((fr.span+5*time.Second)/grantBucket))
	return grantCounter{Locker: l, fr: fr}
}

type grantCounter struct {
	drivers.Locker
	fr *faultRun
}

func (g grantCounter) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	lease, a, err := g.Locker.Lock(ctx, key)
	if err == nil {
		if i := int(time.Since(g.fr.started) / grantBucket); i >= 0 && i < len(g.fr.grants) {
			g.fr.grants[i].Add(1)
		}
	}
	return lease, a, err
}

// recoveries: for each repair event (restart, resume, heal), the time from
// it to the first grant after it; -1 when none came.
func (fr *faultRun) recoveries(events []faults.Event) []recovery {
	var out []recovery
	for _, e := range events {
		if e.Action != "restart" && e.Action != "resume" && e.Action != "heal" {
			continue
		}
		r := recovery{Fault: e.Fault, AtMS: e.AtMS, AfterMS: -1}
		for i := int(e.AtMS / float64(grantBucket.Milliseconds())); i < len(fr.grants); i++ {
			if i >= 0 && fr.grants[i].Load() > 0 {
				r.AfterMS = max(0, float64((time.Duration(i)*grantBucket).Milliseconds())-e.AtMS)
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// recovery is how long after a repair the first lock was granted, at
// grantBucket resolution.
type recovery struct {
	Fault   string  `json:"fault"`
	AtMS    float64 `json:"at_ms"`
	AfterMS float64 `json:"first_grant_after_ms"`
}

// longestOutageMS is the longest run of grant-less buckets from the first
// fault on (the end of the run excluded), in ms.
func (fr *faultRun) longestOutageMS(events []faults.Event, endMS float64) float64 {
	if len(events) == 0 {
		return 0
	}
	from := int(events[0].AtMS / float64(grantBucket.Milliseconds()))
	to := min(len(fr.grants), int(endMS/float64(grantBucket.Milliseconds())))
	best, cur := 0, 0
	for i := max(from, 0); i < to; i++ {
		if fr.grants[i].Load() == 0 {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return float64((time.Duration(best) * grantBucket).Milliseconds())
}

// grantCounts copies the grant buckets up to endMS.
func (fr *faultRun) grantCounts(endMS float64) []int64 {
	n := min(len(fr.grants), int(endMS/float64(grantBucket.Milliseconds()))+1)
	out := make([]int64, n)
	for i := range out {
		out[i] = fr.grants[i].Load()
	}
	return out
}
