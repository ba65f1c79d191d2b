package workloads

import (
	"cmp"
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// Env is what a run measures with, besides its Config.
type Env struct {
	Locker   drivers.Locker
	Registry *record.Registry
	Clock    record.Clock
	Referee  Judge // nil: none
	Pacer    pacer // nil: closed loop
	// Stalls, if set, are client pauses armed by the pause-client fault:
	// an armed worker sleeps inside its next critical section, after the
	// hold and before the release. nil: none.
	Stalls *Stalls
	// Progress, if set, is called once a second with the interval just
	// merged and the total so far.
	Progress func(elapsed time.Duration, iv, total *record.Interval)
	// OnInterval, if set, is given every interval merged into the measured
	// total (the last, partial one included): the .hlog sink.
	OnInterval func(iv *record.Interval)
	// OnWindow, if set, is called as the measured window starts (end
	// false) and as the run ends (end true: every worker has stopped,
	// before the last merge), for samplers that must cover the window
	// (cost accounting). Not called when nothing was measured.
	OnWindow func(end bool)
	// Barrier, if set, is waited for before the run's origin is fixed, and
	// returns the origin: the start several processes agreed on
	// (workloads/generators), so their windows are the same span even when
	// one wakes late. Its error ends the run.
	Barrier func(ctx context.Context) (time.Time, error)
	// ShutdownBudget bounds the wait for the workers after the window
	// (0: ShutdownBudget).
	ShutdownBudget time.Duration
}

// Result is what the loop knows beyond the registry's histograms.
type Result struct {
	Interrupted bool
	// NothingMeasured: the run was interrupted before its measured window
	// began. The registry's total and the referee's counts are empty; what
	// the warmup did is not a result.
	NothingMeasured bool
	// AllocsPerCycle: process heap allocations per completed cycle during
	// the measured window.
	AllocsPerCycle float64
	// Pacing is the open loop's schedule keeping; nil in a closed loop.
	Pacing *Pacing
	// Stalls are the stretches of the window without a grant longer than
	// StallThreshold; Unfinished the cycles in flight at the window's end.
	Stalls     []schema.Stall
	Unfinished *schema.Unfinished
}

// Run drives cfg.Workers workers for cfg.Warmup + cfg.Duration, then returns
// with every measurement merged into env.Registry's total. A parent ctx
// canceled mid-run (Ctrl-C) ends it early with Interrupted set; that is a
// shutdown, not a failure.
//
// One clock decides the window. Before any worker starts, the measured
// window [start+warmup, start+warmup+duration) is fixed on env.Clock and
// given to the registry and the referee: a sample counts if and only if it
// ended inside it, whenever it is recorded, so the registry, the interval
// log and the referee switch at the same instant with nothing unobserved in
// between, and the referee judges exactly the grants counted. Workers stop
// at the window's end (their context's deadline, on the same monotonic
// clock); operations cut short there are not recorded and ones that end
// after it are not counted: their cycles are Result.Unfinished, with how
// long they had waited. Intervals are ticked 1 s apart from the window
// start; the last one, at the end, covers what is left. An interrupted run's
// window ends when its workers have stopped. Workers that have not returned
// ShutdownBudget after that are left behind, counted as stuck.
//
// A stall watcher looks at the live counts every tenth of the stall
// threshold (StallThreshold) and reports each stretch without a grant
// longer than it, with what the attempts meanwhile ended as.
func Run(ctx context.Context, cfg Config, env Env) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	gen, err := newGenerator(cfg)
	if err != nil {
		return Result{}, err
	}
	if env.Referee == nil {
		env.Referee = noReferee{}
	}
	clock := env.Clock
	origin := clock.Now()
	if env.Barrier != nil {
		at, err := env.Barrier(ctx)
		if err != nil {
			return Result{}, err
		}
		origin = clock.At(at)
	}
	from := origin + int64(cfg.warmup())
	until := from + int64(cfg.Duration)
	env.Registry.SetWindow(clock, from, until)
	env.Referee.CountWindow(from, until)
	var open *openLoop
	if env.Pacer == nil && cfg.Rate > 0 {
		open = newOpenLoop(clock.Now, origin, cfg.Rate, cfg.Ramp, cfg.warmup(), cfg.Duration)
		env.Pacer = open
	} else if env.Pacer == nil {
		env.Pacer = closedLoop{now: clock.Now}
	}
	hold, _ := newHoldSampler(cfg.HoldDist, cfg.Hold) // validated above
	runCtx, cancel := context.WithDeadline(ctx, clock.Time(until))
	defer cancel()
	flight := newInflight(cfg.Workers)
	watch := newStallWatch(env.Registry, stallThreshold(cfg), from)

	var wg sync.WaitGroup
	var returned atomic.Int64
	for id := range cfg.Workers {
		w := &worker{id: id, cfg: cfg, env: env, keys: gen.Worker(id), rec: env.Registry.NewRecorder(), hold: hold,
			flight: flight, until: until,
			rnd: rand.New(rand.NewPCG(uint64(id)+1, uint64(time.Now().UnixNano())))}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer returned.Add(1)
			if d := rampDelay(cfg, w.id); d > 0 && !sleep(runCtx, d) {
				return
			}
			w.loop(runCtx)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	// The timer fires at the window start, then every second after it
	// while that is before the end; the end itself is the workers' stop.
	var mallocs0 uint64
	measuring := false
	next := from
	timer := time.NewTimer(time.Duration(next - clock.Now()))
	defer timer.Stop()
	look := time.NewTicker(watch.every)
	defer look.Stop()
	stopping, budget := runCtx.Done(), (<-chan time.Time)(nil)
	var ended int64 // when the workers were told to stop
loop:
	for {
		select {
		case <-stopping:
			// The window is over (or the run interrupted): the workers
			// have ShutdownBudget to return.
			ended, stopping = clock.Now(), nil
			t := time.NewTimer(cmp.Or(env.ShutdownBudget, ShutdownBudget))
			defer t.Stop()
			budget = t.C
		case <-done:
			break loop
		case <-budget:
			break loop
		case <-look.C:
			if now := clock.Now(); measuring && now < until {
				watch.look(now)
			}
		case <-timer.C:
			if !measuring {
				measuring = true
				env.window(false)
				mallocs0 = mallocs()
			} else {
				iv := env.Registry.Tick()
				if env.OnInterval != nil {
					env.OnInterval(iv)
				}
				if env.Progress != nil {
					env.Progress(time.Duration(next-from), iv, env.Registry.Total())
				}
			}
			if next += int64(time.Second); next < until {
				timer.Reset(time.Duration(next - clock.Now()))
			}
		}
	}
	stop := clock.Now()
	if ended == 0 || ended > stop {
		ended = stop
	}
	res := Result{Interrupted: ctx.Err() != nil}
	if stop < from {
		// Every sample ended before the window: nothing counted.
		res.NothingMeasured = true
		env.Registry.Tick()
		return res, nil
	}
	if measuring {
		env.window(true)
	}
	if iv := env.Registry.Tick(); env.OnInterval != nil {
		env.OnInterval(iv)
	}
	if open != nil {
		// Slots due after the deadline were never meant to start.
		p := open.stats(min(stop, until))
		res.Pacing = &p
	}
	if c := env.Registry.Total().Count(schema.OpCycle, schema.OK); c > 0 && measuring {
		res.AllocsPerCycle = float64(mallocs()-mallocs0) / float64(c)
	}
	end := min(ended, until) // the window's end
	res.Stalls = watch.end(end)
	res.Unfinished = flight.unfinished(end, int64(cfg.Workers)-returned.Load())
	return res, nil
}

func (e Env) window(end bool) {
	if e.OnWindow != nil {
		e.OnWindow(end)
	}
}

func mallocs() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

type worker struct {
	id   int
	cfg  Config
	env  Env
	keys keySource
	rec  *record.Recorder
	rnd  *rand.Rand
	hold holdSampler
	// flight is where the worker marks its cycle's phases; until is the
	// window's end (a cycle that ends after it is unfinished).
	flight *inflight
	until  int64
	// timer is reused by every wait of the worker (hold, retry delay,
	// pause): a cycle allocates no timer.
	timer *time.Timer
}

// pause waits d or until ctx ends (false) on the worker's own timer.
func (w *worker) pause(ctx context.Context, d time.Duration) bool {
	if w.timer == nil {
		w.timer = time.NewTimer(d)
	} else {
		w.timer.Reset(d) // Go ≥ 1.23 timers: no stale tick after Stop
	}
	select {
	case <-ctx.Done():
		w.timer.Stop()
		return false
	case <-w.timer.C:
		return true
	}
}

func (w *worker) loop(ctx context.Context) {
	for {
		intended, ok := w.env.Pacer.Next(ctx, w.id)
		if !ok {
			return
		}
		w.cycle(ctx, intended, w.keys.Next())
	}
}

// cycle is one acquire (with retries) / hold / release.
func (w *worker) cycle(ctx context.Context, intended int64, key string) {
	clock := w.env.Clock
	cycleStart := clock.Now()
	w.flight.begin(w.id, intended)
	var lease drivers.Lease
	var last schema.Outcome
	var granted, attemptStart int64
	for try := 0; try < w.cfg.Tries; try++ {
		if try > 0 && w.cfg.RetryDelay > 0 && !w.pause(ctx, time.Duration(w.rnd.Int64N(int64(w.cfg.RetryDelay)))) {
			return
		}
		s := clock.Now()
		w.env.Referee.Attempting(w.id, key, s)
		l, att, err := w.env.Locker.Lock(ctx, key)
		e := clock.Now()
		o := drivers.Classify(ctx, att, err)
		if o == schema.Canceled {
			w.env.Referee.Failed(w.id, key, s, e, schema.Error) // clears the attempt
			return
		}
		last = o
		if o == schema.OK {
			w.rec.Record(schema.OpAcquire, last, s, s, e)
			lease, granted, attemptStart = l, e, s
			break
		}
		// The referee's verdict, not the client's view, is what is counted.
		last = w.env.Referee.Failed(w.id, key, s, e, last)
		w.rec.Record(schema.OpAcquire, last, s, s, e)
	}
	if lease == nil {
		w.rec.Count(schema.OpAcquireTotal, last, clock.Now()) // gave up after --tries
		w.done(clock.Now())
		return
	}
	w.flight.enter(w.id, schema.PhaseHolding)
	w.rec.Record(schema.OpAcquireTotal, schema.OK, intended, cycleStart, granted)
	w.env.Referee.Granted(w.id, key, attemptStart, granted, clock.At(lease.ValidUntil()), lease.Fence())

	if d := w.hold(w.rnd); d > 0 {
		w.pause(ctx, d)
	}
	if d := w.env.Stalls.take(w.id); d > 0 {
		w.pause(ctx, d) // a paused holder, still inside: its lease may expire meanwhile
	}
	rs := clock.Now()
	w.env.Referee.Released(w.id, key, rs)
	if ctx.Err() == nil {
		w.flight.enter(w.id, schema.PhaseReleasing)
	}
	if ctx.Err() != nil {
		// The run is over: free the key for whoever runs next, unrecorded.
		rctx, cancel := context.WithTimeout(drivers.ShuttingDown(context.WithoutCancel(ctx)), time.Second)
		_ = lease.Unlock(rctx)
		cancel()
		w.env.Referee.Unlocked(w.id, key, clock.Now())
		return
	}
	re, err := w.release(ctx, lease, rs)
	w.env.Referee.Unlocked(w.id, key, re)
	if ctx.Err() != nil && err != nil {
		return
	}
	w.rec.Record(schema.OpCycle, schema.OK, intended, cycleStart, re)
	w.done(re)
}

// done marks the cycle over at end: not in flight any more, unless it
// ended after the window (then it was in flight at the window's end).
func (w *worker) done(end int64) {
	if end < w.until {
		w.flight.enter(w.id, schema.PhaseIdle)
	}
}

// sleep waits d or until ctx ends; false if ctx ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
