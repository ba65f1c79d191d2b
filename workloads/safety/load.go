package safety

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/referee"
	"github.com/lockbench/lockbench/results/schema"
)

// load is one point's contended workload: workers on Keys keys, each
// cycle an attempt retried until granted, a token, the entry write, the
// pause (or the rest of the lease's validity), the exit write and the
// unlock. It ends once the grant budget is spent or the time limit passes
// (no new attempt; holders finish their cycle, so every grant's writes are
// judged).
type load struct {
	locker drivers.Locker
	// silenced, if set, are the workers' lockers, one each, which a pause
	// silences (silence.go); locker is then nil.
	silenced *silenced
	// cutOff, if set, is the locker of the first worker of each key: one
	// that cannot reach some of the masters (fault.CutOff).
	cutOff drivers.Locker
	// cutFirst, one a key when cutOff is set, closes once the key's
	// cut-off worker has made its first attempt: the key's other workers
	// wait for it, so every key's first grant stands on the bare quorum
	// the fault is about, however the host schedules the workers.
	cutFirst []chan struct{}
	tokens   tokens
	spec     pointSpec
	cfg      Config
	prefix   string // of the point's keys: no point sees another's
	workers  int
	// minSpan is the least the point lasts (fault.MinSpan), until its end.
	minSpan time.Duration
	until   time.Time
	spread  bool // fault.Spread

	clock         record.Clock
	ref           *referee.Referee
	res           *Resource
	granted       atomic.Int64
	cutOffGranted atomic.Int64
	tokenErrs     atomic.Int64
	overran       atomic.Int64
	attempts      atomic.Int64
	errs          atomic.Int64
	pauses        pauseStats
	stop          context.CancelFunc // ends the attempts
	failOnce      sync.Once
	err           error
}

// measure runs the point and returns it.
func (ld *load) measure(ctx context.Context) (Point, error) {
	ld.workers = ld.cfg.workers(ld.spec)
	ld.clock = record.NewClock()
	ld.ref = referee.New(ld.workers, ld.clock, 0)
	ld.ref.CountFrom(0)
	ld.res = NewResource(ld.spec.Fencing)
	attempts, stop := context.WithTimeout(ctx, ld.cfg.PointLimit)
	defer stop()
	ld.stop = stop
	start := time.Now()
	ld.until = start.Add(ld.minSpan)
	if ld.cutOff != nil {
		ld.cutFirst = make([]chan struct{}, ld.cfg.Keys)
		for k := range ld.cutFirst {
			ld.cutFirst[k] = make(chan struct{})
		}
	}
	var wg sync.WaitGroup
	for id := range ld.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ld.work(ctx, attempts, id)
		}()
	}
	wg.Wait()
	if ld.err != nil {
		return Point{}, ld.err
	}
	p := ld.point(time.Since(start), ctx.Err() != nil)
	p.WallClockStepMS = ms(wallStep(start, time.Now()))
	return p, nil
}

// wallStep is how far the wall clock moved against the monotonic clock
// from a to b (both read with time.Now).
func wallStep(a, b time.Time) time.Duration {
	return b.Round(0).Sub(a.Round(0)) - b.Sub(a)
}

// work is one worker's cycles on its key until attempts ends.
func (ld *load) work(ctx, attempts context.Context, id int) {
	key := fmt.Sprintf("%s%d", ld.prefix, id%ld.cfg.Keys)
	rnd := rand.New(rand.NewPCG(uint64(id), uint64(time.Now().UnixNano())))
	if phase := time.Duration(int64(ld.cfg.TTL) * int64(id%ld.cfg.Keys) / int64(ld.cfg.Keys)); ld.spread && !sleep(attempts, phase) {
		return
	}
	locker, cut := ld.locker, ld.cutOff != nil && id < ld.cfg.Keys
	first := func() {}
	switch {
	case cut:
		locker = ld.cutOff
		first = sync.OnceFunc(func() { close(ld.cutFirst[id]) })
		defer first()
	case ld.silenced != nil:
		locker = ld.silenced.lockers[id]
	}
	if ld.cutOff != nil && !cut {
		select {
		case <-ld.cutFirst[id%ld.cfg.Keys]:
		case <-attempts.Done():
			return
		}
	}
	for attempts.Err() == nil {
		s := ld.clock.Now()
		ld.ref.Attempting(id, key, s)
		lease, att, err := locker.Lock(attempts, key)
		e := ld.clock.Now()
		first()
		ld.attempts.Add(1)
		if err != nil {
			o := drivers.Classify(attempts, att, err)
			if o == schema.Canceled {
				ld.ref.Failed(id, key, s, e, schema.Error) // clears the attempt
				return
			}
			if o == schema.Error || o == schema.Timeout {
				ld.errs.Add(1)
			}
			ld.ref.Failed(id, key, s, e, o)
			retry := ld.cfg.RetryDelay/2 + time.Duration(rnd.Int64N(int64(ld.cfg.RetryDelay)))
			if !sleep(attempts, retry) {
				return
			}
			continue
		}
		if ld.granted.Add(1) >= int64(ld.cfg.Grants) && !time.Now().Before(ld.until) {
			ld.stop()
		}
		if cut {
			ld.cutOffGranted.Add(1)
		}
		if err := ld.hold(ctx, id, key, lease, s, e); err != nil {
			ld.fail(err)
			return
		}
		// A holder that kept its lease for the whole validity rests before
		// its next attempt, else it would take the key straight back each
		// time and the other workers, the cut-off one among them, would
		// never be granted. A paused holder's lease lapsed already: the
		// key has moved on without it.
		if _, fixed := ld.cfg.pause(ld.spec); !fixed && !sleep(attempts, ld.cfg.RetryDelay/2+time.Duration(rnd.Int64N(int64(ld.cfg.RetryDelay)))) {
			return
		}
	}
}

// hold is the critical section of a grant won by the attempt [s, e]: the
// holder stops between its entry write and its exit write for the fault's
// pause, or else until its lease's validity nearly ends (validityMargin).
func (ld *load) hold(ctx context.Context, id int, key string, lease drivers.Lease, s, e int64) error {
	seq := ld.res.Grant(key)
	ld.ref.Granted(id, key, s, e, ld.clock.At(lease.ValidUntil()), lease.Fence())
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = lease.Unlock(uctx) // ErrNotHeld after a lapsed lease: expected
		cancel()
		ld.ref.Unlocked(id, key, ld.clock.Now())
	}()
	token, err := ld.tokens.take(ctx, key, lease)
	if err != nil {
		ld.ref.Released(id, key, ld.clock.Now())
		switch {
		case ctx.Err() != nil:
			return nil
		case errors.Is(err, errNoToken):
			return err
		}
		// The counter's master is down (a crash fault): the grant stands,
		// its writes are not made, so not judged.
		ld.tokenErrs.Add(1)
		return nil
	}
	ld.res.Write(key, seq, token)
	pause, fixed := ld.cfg.pause(ld.spec)
	if !fixed {
		pause = min(time.Until(lease.ValidUntil())-ld.cfg.TTL/validityMargin, ld.cfg.TTL)
	}
	speak := func() {}
	if fixed && ld.silenced != nil {
		if speak, err = ld.silenced.hush(id); err != nil {
			ld.ref.Released(id, key, ld.clock.Now())
			return err
		}
	}
	t0 := time.Now()
	slept := sleep(ctx, pause)
	if slept && fixed {
		ld.pauses.add(time.Since(t0)) // the holder's own clock
	}
	speak() // the holder resumes: its connections carry again
	ld.ref.Released(id, key, ld.clock.Now())
	ld.res.Write(key, seq, token)
	if valid := lease.ValidUntil(); slept && !fixed && t0.Add(pause).Before(valid) && time.Now().After(valid) {
		ld.overran.Add(1)
	}
	return nil
}

func (ld *load) fail(err error) {
	ld.failOnce.Do(func() {
		ld.err = err
		ld.stop()
	})
}

// validityMargin: a holder that uses its lease's validity stops working
// TTL/validityMargin before the validity ends and makes its exit write,
// as a careful holder leaves room for its own scheduling; a late wake-up
// of the holder is the pause fault's, not the others'.
const validityMargin = 20

// point is what the load measured.
func (ld *load) point(elapsed time.Duration, interrupted bool) Point {
	wc := ld.res.Counts()
	rep := ld.ref.Report()
	grants := ld.granted.Load()
	violations := rep.Violations + wc.StaleAccepted
	r := RateOf(violations, grants)
	minP, maxP := ld.pauses.span()
	pause, _ := ld.cfg.pause(ld.spec)
	return Point{
		Backend: ld.spec.Backend, Fault: ld.spec.Fault, Ratio: ld.spec.Ratio, Fencing: Fencing(fencingName(ld.spec.Fencing)),
		MagnitudeMS: ld.spec.Ratio * ms(ld.cfg.TTL),
		PauseMS:     ms(pause), Grants: grants, Violations: violations, CutOffGrants: ld.cutOffGranted.Load(), TokenErrors: ld.tokenErrs.Load(),
		Overran:    ld.overran.Load(),
		PerMillion: r.PerMillion, PerMillionLo: r.Lo, PerMillionHi: r.Hi, WriteCounts: wc,
		LockViolations: rep.Violations, StaleOverlaps: rep.StaleOverlaps,
		Attempts: ld.attempts.Load(), Errors: ld.errs.Load(),
		MeasuredPauseMinMS: ms(minP), MeasuredPauseMaxMS: ms(maxP),
		Keys: ld.cfg.Keys, Workers: ld.workers, ElapsedMS: ms(elapsed),
		Short: !interrupted && grants < int64(ld.cfg.Grants), Interrupted: interrupted,
	}
}

// pauseStats are the shortest and longest pause measured.
type pauseStats struct {
	mu       sync.Mutex
	n        int
	min, max time.Duration
}

func (p *pauseStats) add(d time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 || d < p.min {
		p.min = d
	}
	p.max = max(p.max, d)
	p.n++
}

func (p *pauseStats) span() (lo, hi time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.min, p.max
}

// sleep waits d or until ctx ends; false if ctx ended first.
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
