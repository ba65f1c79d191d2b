package lab

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/compose/delayline"
	"github.com/lockbench/lockbench/compose/faults"
	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/redisconn"
	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads"
)

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
	grants  []atomic.Int64     // grants per grantBucket since started
	stalls  *workloads.Stalls  // pause-client faults arm them; nil without
	line    *delayline.Process // distance and latency faults; nil without
	front   []string           // what the clients dial instead of the servers
	drops   *releaseDrops      // drop-release faults arm them; nil without

	mu       sync.Mutex
	timeline []schema.Availability
}

// openFaults parses cfg.Faults and, when the run asks for distance or a
// network fault, puts a delay line (distance, latency) and proxies
// (partition, reset) in front of the servers the backend dials: masters is
// what a Redis driver must dial (route redirects the other backends). nil
// when the run has neither faults nor distance.
func (l *Lab) openFaults(cfg Config, log io.Writer) (fr *faultRun, masters []redisconn.Endpoint, err error) {
	topo := l.Topo
	if len(cfg.Faults) == 0 && !cfg.HasDistance() {
		return nil, topo.Masters, nil
	}
	fs, _, err := faults.ParseAll(cfg.Faults)
	if err != nil {
		return nil, nil, err
	}
	fr = &faultRun{faults: fs, target: faults.Target{TTL: cfg.Driver.Redlock.TTL}, span: cfg.Workload.Warmup + cfg.Workload.Ramp + cfg.Workload.Duration}
	fr.target.Log = log
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
	if faults.Has(fs, faults.DropRelease) {
		fr.drops = &releaseDrops{}
		fr.target.DropRelease = fr.drops.arm
	}
	opened := fr // the return below clears fr
	defer func() {
		if err != nil {
			opened.finish(nil)
		}
	}()
	// Plain TCP pass-through: TLS and AUTH travel inside both.
	front := upstreams
	if faults.Has(fs, faults.Partition) || faults.Has(fs, faults.Reset) {
		p, err := compose.StartProxies(front)
		if err != nil {
			return nil, nil, err
		}
		fr.target.Proxies, front = p, p.Addrs()
	}
	if cfg.HasDistance() || faults.Has(fs, faults.Latency) {
		dist := cfg.Distances(len(front))
		pairs := make([]delayline.Pair, len(front))
		for i, a := range front {
			pairs[i] = delayline.Pair{Listen: "127.0.0.1:0", Target: a, Distance: dist[i]}
		}
		line, err := delayline.Start(pairs, delayline.Options{Log: log})
		if err != nil {
			return nil, nil, err
		}
		fr.line, fr.target.Line, fr.target.Distances, front = line, line, dist, line.Addrs()
	}
	fr.front = front
	masters = topo.Masters
	if fr.on == faults.OnRedis && len(front) == len(topo.Masters) {
		masters = make([]redisconn.Endpoint, len(topo.Masters))
		for i, a := range front {
			masters[i] = topo.Masters[i].Via(a)
		}
	}
	return fr, masters, nil
}

// relayUS is the delay line's own relay time per round trip, in µs; 0
// without a line.
func (fr *faultRun) relayUS() float64 {
	if fr == nil || fr.line == nil {
		return 0
	}
	return float64(fr.line.Relay().Nanoseconds()) / 1e3
}

// delayCPU reads the delay line's CPU; nil Read when the run has none.
func (fr *faultRun) delayCPU() procstat.ServerCPU {
	if fr == nil || fr.line == nil {
		return procstat.ServerCPU{}
	}
	pid := fr.line.Pid()
	return procstat.ProcsCPU(func() []int { return []int{pid} })
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
func (fr *faultRun) observe(next func(*record.Interval)) func(*record.Interval) {
	if fr == nil {
		return next
	}
	return func(iv *record.Interval) {
		a := schema.Availability{
			FromS: iv.Start.Sub(fr.started).Seconds(), ToS: iv.End.Sub(fr.started).Seconds(),
			Acquired: iv.Count(schema.OpAcquire, schema.OK), Attempts: iv.Total(schema.OpAcquire),
		}
		fr.mu.Lock()
		fr.timeline = append(fr.timeline, a)
		fr.mu.Unlock()
		if next != nil {
			next(iv)
		}
	}
}

// faultSpecs are the faults as a run's report holds them.
func faultSpecs(fs []faults.Fault) []schema.FaultSpec {
	out := make([]schema.FaultSpec, len(fs))
	for i, f := range fs {
		out[i] = schema.FaultSpec{Spec: f.Spec, Kind: f.Kind, Masters: f.Masters, Workers: f.Workers, At: f.At.String(),
			For: f.For.String(), Restart: f.Restart, Delay: f.Delay.String(), MS: f.MS, Jitter: f.Jitter, Jump: f.Jump, Rate: f.Rate}
	}
	return out
}

// faultEvents are the schedule's events as a run's report holds them.
func faultEvents(es []faults.Event) []schema.FaultEvent {
	if es == nil {
		return nil
	}
	out := make([]schema.FaultEvent, len(es))
	for i, e := range es {
		out[i] = schema.FaultEvent(e)
	}
	return out
}

// finish stops the schedule (healing what is still broken), closes the
// proxies and records what happened into run.Faults.
func (fr *faultRun) finish(run *schema.Run) {
	if fr == nil || fr.done {
		return
	}
	fr.done = true
	var events []faults.Event
	if fr.sched != nil {
		events = fr.sched.Stop()
	}
	if fr.line != nil {
		_ = fr.line.Close()
	}
	if fr.target.Proxies != nil {
		_ = fr.target.Proxies.Close()
	}
	if run == nil || len(fr.faults) == 0 { // only a delay line for the distance: nothing to report
		return
	}
	end := float64(time.Since(fr.started).Milliseconds())
	fr.mu.Lock()
	run.Faults = &schema.FaultReport{Specs: faultSpecs(fr.faults), Events: faultEvents(events), Timeline: fr.timeline,
		Recoveries: fr.recoveries(events), LongestOutageMS: fr.longestOutageMS(events, end), Grants10ms: fr.grantCounts(end),
		Stalls: fr.stalls.Taken()}
	fr.mu.Unlock()
}

// grantBucket is the resolution of the grant timeline of a fault run.
const grantBucket = 10 * time.Millisecond

// wrap counts every grant into 10 ms buckets (one atomic add, no lock), for
// recovery times finer than the 1 s intervals, and, in a run with a
// drop-release fault, wraps each lease so its release can be lost. Runs
// without faults are not wrapped.
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
		if g.fr.drops != nil {
			lease = droppingLease{Lease: lease, drops: g.fr.drops}
		}
	}
	return lease, a, err
}

// recoveries: for each repair event (restart, resume, heal), the time from
// it to the first grant after it; -1 when none came.
func (fr *faultRun) recoveries(events []faults.Event) []schema.Recovery {
	var out []schema.Recovery
	for _, e := range events {
		if e.Action != "restart" && e.Action != "resume" && e.Action != "heal" {
			continue
		}
		r := schema.Recovery{Fault: e.Fault, AtMS: e.AtMS, AfterMS: -1}
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
