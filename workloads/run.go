package workloads

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results"
)

// Env is what a run measures with, besides its Config.
type Env struct {
	Locker   drivers.Locker
	Registry *results.Registry
	Clock    results.Clock
	Referee  Referee // nil: none
	Pacer    Pacer   // nil: closed loop
	// Stalls, if set, are client pauses armed by the pause-client fault:
	// an armed worker sleeps inside its next critical section, after the
	// hold and before the release. nil: none.
	Stalls *Stalls
	// Progress, if set, is called once a second with the interval just
	// merged and the total so far.
	Progress func(elapsed time.Duration, iv, total *results.Interval)
	// OnInterval, if set, is given every interval merged into the measured
	// total (the last, partial one included): the .hlog sink.
	OnInterval func(iv *results.Interval)
}

// Result is what the loop knows beyond the registry's histograms.
type Result struct {
	Interrupted bool
	// AllocsPerCycle: process heap allocations per completed cycle during
	// the measured window.
	AllocsPerCycle float64
	// Pacing is the open loop's schedule keeping; nil in a closed loop.
	Pacing *Pacing
}

// Run drives cfg.Workers workers for cfg.Warmup + cfg.Duration, then returns
// with every measurement merged into env.Registry's total. A parent ctx
// canceled mid-run (Ctrl-C) ends it early with Interrupted set; that is a
// shutdown, not a failure.
func Run(ctx context.Context, cfg Config, env Env) (Result, error) {
	if err := cfg.Validate(); err != nil {
		return Result{}, err
	}
	gen, err := NewGenerator(cfg)
	if err != nil {
		return Result{}, err
	}
	if env.Referee == nil {
		env.Referee = noReferee{}
	}
	warmup := cfg.warmup()
	var open *openLoop
	if env.Pacer == nil && cfg.Rate > 0 {
		open = newOpenLoop(env.Clock.Now, env.Clock.Now(), cfg.Rate, cfg.Ramp, warmup)
		env.Pacer = open
	} else if env.Pacer == nil {
		env.Pacer = closedLoop{now: env.Clock.Now}
	}
	hold, _ := newHoldSampler(cfg.HoldDist, cfg.Hold) // validated above
	if warmup > 0 {
		env.Referee.CountFrom(math.MaxInt64) // until the registry's reset ends the warmup
	}
	runCtx, cancel := context.WithTimeout(ctx, warmup+cfg.Duration)
	defer cancel()

	var wg sync.WaitGroup
	var stopped atomic.Bool
	for id := range cfg.Workers {
		w := &worker{id: id, cfg: cfg, env: env, keys: gen.Worker(id), rec: env.Registry.NewRecorder(), hold: hold,
			rnd: rand.New(rand.NewPCG(uint64(id)+1, uint64(time.Now().UnixNano())))}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d := rampDelay(cfg, w.id); d > 0 && !sleep(runCtx, d) {
				return
			}
			w.loop(runCtx)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); stopped.Store(true); close(done) }()

	start := time.Now()
	measureFrom := start.Add(warmup)
	var mallocs0 uint64
	if warmup == 0 {
		mallocs0 = mallocs()
	}
	warm := warmup == 0
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-done:
			if iv := env.Registry.Tick(); env.OnInterval != nil && warm {
				env.OnInterval(iv)
			}
			res := Result{Interrupted: ctx.Err() != nil}
			if open != nil {
				// Slots due after the deadline were never meant to start.
				p := open.stats(min(env.Clock.Now(), open.origin+int64(warmup+cfg.Duration)))
				res.Pacing = &p
			}
			if c := env.Registry.Total().Count(results.OpCycle, results.OK); c > 0 && warm {
				res.AllocsPerCycle = float64(mallocs()-mallocs0) / float64(c)
			}
			return res, nil
		case now := <-tick.C:
			if !warm && !now.Before(measureFrom) {
				env.Registry.Reset()
				env.Referee.CountFrom(env.Clock.Now())
				mallocs0 = mallocs()
				warm = true
				continue
			}
			iv := env.Registry.Tick()
			if env.OnInterval != nil && warm {
				env.OnInterval(iv)
			}
			if env.Progress != nil && warm {
				env.Progress(now.Sub(measureFrom), iv, env.Registry.Total())
			}
		}
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
	keys KeySource
	rec  *results.Recorder
	rnd  *rand.Rand
	hold holdSampler
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
	var lease drivers.Lease
	var last results.Outcome
	var granted, attemptStart int64
	for try := 0; try < w.cfg.Tries; try++ {
		if try > 0 && w.cfg.RetryDelay > 0 && !sleep(ctx, time.Duration(w.rnd.Int64N(int64(w.cfg.RetryDelay)))) {
			return
		}
		s := clock.Now()
		w.env.Referee.Attempting(w.id, key, s)
		l, att, err := w.env.Locker.Lock(ctx, key)
		e := clock.Now()
		o := drivers.Classify(ctx, att, err)
		if o == drivers.Canceled {
			w.env.Referee.Failed(w.id, key, s, e, results.Error) // clears the attempt
			return
		}
		last = results.Outcome(o)
		if o == drivers.Acquired {
			w.rec.Record(results.OpAcquire, last, s, s, e)
			lease, granted, attemptStart = l, e, s
			break
		}
		// The referee's verdict, not the client's view, is what is counted.
		last = w.env.Referee.Failed(w.id, key, s, e, last)
		w.rec.Record(results.OpAcquire, last, s, s, e)
	}
	if lease == nil {
		w.rec.Count(results.OpAcquireTotal, last) // gave up after --tries
		return
	}
	w.rec.Record(results.OpAcquireTotal, results.OK, intended, cycleStart, granted)
	w.env.Referee.Granted(w.id, key, attemptStart, granted, clock.At(lease.ValidUntil()), lease.Fence())

	if d := w.hold(w.rnd); d > 0 {
		sleep(ctx, d)
	}
	if d := w.env.Stalls.take(w.id); d > 0 {
		sleep(ctx, d) // a paused holder, still inside: its lease may expire meanwhile
	}
	rs := clock.Now()
	w.env.Referee.Released(w.id, key, rs)
	if ctx.Err() != nil {
		// The run is over: free the key for whoever runs next, unrecorded.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		_ = lease.Unlock(rctx)
		cancel()
		w.env.Referee.Unlocked(w.id, key, clock.Now())
		return
	}
	err := lease.Unlock(ctx)
	re := clock.Now()
	w.env.Referee.Unlocked(w.id, key, re)
	if ctx.Err() != nil && err != nil {
		return
	}
	w.rec.Record(results.OpRelease, releaseOutcome(err), rs, rs, re)
	w.rec.Record(results.OpCycle, results.OK, intended, cycleStart, re)
}

func releaseOutcome(err error) results.Outcome {
	switch {
	case err == nil:
		return results.OK
	case errors.Is(err, drivers.ErrNotHeld):
		return results.Timeout // the lock had expired before the release
	}
	return results.Error
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
