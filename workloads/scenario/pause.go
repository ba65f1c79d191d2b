package scenario

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
	"github.com/lockbench/lockbench/drivers/etcdlock"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// client-pause is the critique's process pause: holder A stalls inside its
// critical section (a GC pause, a page fault) until its lease has expired
// and B holds the lock, then A wakes and writes to the protected resource.
// The resource here is a register that, given fencing tokens, refuses a
// write older than one it has seen. Redlock hands out no token (Fence 0):
// A's stale write lands beside B's. etcd's lock revision is a token: the
// stale write is refused. The pause is ordered, not timed (A resumes once B
// has been granted), so the outcome does not depend on scheduling luck.

const pauseRounds = 3

// register is the protected resource: it keeps the highest fencing token
// written and, when tokens are given (non-zero), refuses older ones.
type register struct {
	mu  sync.Mutex
	max uint64
}

func (r *register) write(fence uint64) (accepted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if fence != 0 && fence < r.max {
		return false
	}
	r.max = max(r.max, fence)
	return true
}

// pauseMeasure is what one backend's rounds measured.
type pauseMeasure = schema.FencingOutcome

// runClientPause measures every backend of s and judges each row.
func runClientPause(ctx context.Context, s Scenario) ([]schema.Run, error) {
	var runs []schema.Run
	for _, b := range s.Backends {
		measure := b.Measure
		if measure == nil {
			measure = measurePause
		}
		m, err := measure(ctx, b.Backend)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", b.Backend, err)
		}
		runs = append(runs, pauseRow(s.Name, b, m))
	}
	return runs, nil
}

// pauseRow is one backend's rounds as a summary row, judged: A and B are
// granted every round; a stale write that landed is the violation.
func pauseRow(name string, b pauseBackend, m pauseMeasure) schema.Run {
	o := schema.ScenarioOutcome{Scenario: name, Violations: int64(m.StaleAccepted), Acquired: int64(2 * m.Rounds),
		Attempts: int64(2 * m.Rounds), After: -1, RecoveryMS: -1, Fencing: &m}
	b.Expect.judge(&o)
	return schema.Run{Name: "scenario/" + name + "/" + b.Backend, Backend: b.Backend, Workload: name, Keys: 1, Workers: 2,
		Counts: schema.Counts{Attempts: o.Attempts, Acquired: o.Acquired, Cycles: o.Acquired, Violations: o.Violations}, Scenario: &o}
}

// playRounds plays the rounds with round(key) and counts the stale writes.
func playRounds(backend string, round func(key string) (accepted bool, err error)) (pauseMeasure, error) {
	m := pauseMeasure{Backend: backend, Rounds: pauseRounds}
	for i := range pauseRounds {
		accepted, err := round(fmt.Sprintf("lockbench:pause:%d:%d", time.Now().UnixNano(), i))
		if err != nil {
			return m, err
		}
		if accepted {
			m.StaleAccepted++
		} else {
			m.StaleRejected++
		}
	}
	return m, nil
}

func measurePause(ctx context.Context, backend string) (pauseMeasure, error) {
	cfg := lab.DefaultConfig()
	cfg.Driver.Backend = backend
	cfg.Driver.Redlock.TTL = 2 * time.Second // etcd's lease TTL too (whole seconds)
	backends.Update(&cfg.Driver, func(c *etcdlock.Config) {
		c.KeepAlive = false // a paused process sends no keep-alives either
	})
	cfg.Workload.Workers = 2
	if err := prepare(&cfg); err != nil {
		return pauseMeasure{}, err
	}
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		return pauseMeasure{}, err
	}
	defer l.Close()
	spec := cfg.Driver
	spec.Workers = 2
	locker, err := backends.Open(ctx, spec, l.Endpoints())
	if err != nil {
		return pauseMeasure{}, err
	}
	defer locker.Close()
	return playRounds(backend, func(key string) (bool, error) { return pauseRound(ctx, locker, locker, nil, key) })
}

// pauseRound: A acquires and stalls; B acquires once A's lease is gone and
// writes; A resumes and writes. It reports whether A's stale write landed.
// a and b are A's and B's Lockers (the same one, or two clients); pause,
// if set, silences A while it is paused and returns how to let it resume.
func pauseRound(ctx context.Context, a, b drivers.Locker, pause func() (resume func(), err error), key string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	la, err := lockRetry(ctx, a, key)
	if err != nil {
		return false, fmt.Errorf("A: %w", err)
	}
	var reg register
	if !reg.write(la.Fence()) { // A's first write, before the pause
		return false, errors.New("A's first write refused")
	}
	resume := func() {}
	if pause != nil { // A is paused from here
		if resume, err = pause(); err != nil {
			return false, err
		}
	}
	// B contends until it is granted.
	lb, err := lockRetry(ctx, b, key)
	if err != nil {
		return false, fmt.Errorf("B: %w", err)
	}
	if !reg.write(lb.Fence()) {
		return false, errors.New("B's write refused")
	}
	// A resumes, unaware that its lease expired, and writes again.
	resume()
	accepted := reg.write(la.Fence())
	if pause == nil {
		_ = la.Unlock(ctx) // ErrNotHeld: not ours any more
	} // else A's session is gone with its lock; the caller closes its client
	_ = lb.Unlock(ctx)
	return accepted, nil
}

// lockRetry attempts every 10 ms until granted.
func lockRetry(ctx context.Context, l drivers.Locker, key string) (drivers.Lease, error) {
	lease, _, err := lockRetryFrom(ctx, l, key)
	return lease, err
}

// lockRetryFrom attempts every 10 ms until granted; start is the winning
// attempt's start.
func lockRetryFrom(ctx context.Context, l drivers.Locker, key string) (lease drivers.Lease, start time.Time, err error) {
	err = retryEvery10ms(ctx, func() (err error) {
		start = time.Now()
		lease, _, err = l.Lock(ctx, key)
		return err
	})
	return lease, start, err
}

// unlockRetry releases ls, again every 10 ms while the release fails and
// ctx lasts: a compare-and-delete that took effect before its reply was
// lost answers "not held" the next time, which is a release too.
func unlockRetry(ctx context.Context, ls drivers.Lease) error {
	return retryEvery10ms(ctx, func() error {
		if err := ls.Unlock(ctx); !errors.Is(err, drivers.ErrNotHeld) {
			return err
		}
		return nil
	})
}

// retryEvery10ms calls try until it succeeds or ctx ends, 10 ms apart; the
// error then names the context's end and try's last error.
func retryEvery10ms(ctx context.Context, try func() error) error {
	for {
		err := try()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
