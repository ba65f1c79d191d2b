package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/drivers/backends"
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

// pauseOutcome is one client-pause row.
type pauseOutcome struct {
	Scenario      string `json:"scenario"`
	Backend       string `json:"backend"`
	Rounds        int    `json:"rounds"`
	StaleAccepted int    `json:"stale_writes_accepted"` // the violation
	StaleRejected int    `json:"stale_writes_rejected"` // caught by the fencing token
	Expected      string `json:"expected"`
	AsExpected    bool   `json:"as_expected"`
}

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

func runClientPause(ctx context.Context, w io.Writer) error {
	var outs []pauseOutcome
	for _, b := range []struct{ backend, expect string }{
		{"redlock", "stale writes accepted (no fencing token)"},
		{"etcd", "stale writes rejected by the fencing token"},
		{"zookeeper", "stale writes rejected by the fencing token (czxid)"},
	} {
		measure := measurePause
		if b.backend == "zookeeper" {
			measure = func(ctx context.Context, _ string) (pauseOutcome, error) { return measurePauseZK(ctx) }
		}
		o, err := measure(ctx, b.backend)
		if err != nil {
			return fmt.Errorf("scenario client-pause (%s): %w", b.backend, err)
		}
		o.Expected = b.expect
		if b.backend == "etcd" || b.backend == "zookeeper" {
			o.AsExpected = o.StaleAccepted == 0 && o.StaleRejected == o.Rounds
		} else {
			o.AsExpected = o.StaleAccepted > 0
		}
		outs = append(outs, o)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "scenario\tbackend\trounds\tstale writes accepted\tstale writes rejected\texpected\tas expected")
	var differ bool
	for _, o := range outs {
		v := "yes"
		if !o.AsExpected {
			v, differ = "NO", true
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\n", o.Scenario, o.Backend, o.Rounds, o.StaleAccepted, o.StaleRejected, o.Expected, v)
	}
	tw.Flush()
	if differ {
		return exitError{exitFailure, "measured outcome differs from the expected one: client-pause"}
	}
	return nil
}

func measurePause(ctx context.Context, backend string) (pauseOutcome, error) {
	o := pauseOutcome{Scenario: "client-pause", Backend: backend, Rounds: pauseRounds}
	cfg := defaultRunConfig()
	cfg.Driver.Backend = backend
	cfg.Driver.Redlock.TTL = 2 * time.Second // etcd's lease TTL too (whole seconds)
	cfg.Driver.Etcd.KeepAlive = false        // a paused process sends no keep-alives either
	cfg.Workload.Workers = 2
	cfg.Quiet = true
	if err := cfg.validate(); err != nil {
		return o, err
	}
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		return o, upError(ctx, err)
	}
	defer l.Close()
	spec := cfg.Driver
	spec.Workers = 2
	l.Endpoints(&spec)
	locker, err := backends.Open(ctx, spec)
	if err != nil {
		return o, err
	}
	defer locker.Close()
	for round := range pauseRounds {
		accepted, err := pauseRound(ctx, locker, fmt.Sprintf("lockbench:pause:%d:%d", time.Now().UnixNano(), round))
		if err != nil {
			return o, err
		}
		if accepted {
			o.StaleAccepted++
		} else {
			o.StaleRejected++
		}
	}
	return o, nil
}

// pauseRound: A acquires and stalls; B acquires once A's lease is gone and
// writes; A resumes and writes. It reports whether A's stale write landed.
func pauseRound(ctx context.Context, locker drivers.Locker, key string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	a, err := lockRetry(ctx, locker, key)
	if err != nil {
		return false, fmt.Errorf("A: %w", err)
	}
	var reg register
	if !reg.write(a.Fence()) { // A's first write, before the pause
		return false, errors.New("A's first write refused")
	}
	// A is paused from here. B contends until it is granted.
	b, err := lockRetry(ctx, locker, key)
	if err != nil {
		return false, fmt.Errorf("B: %w", err)
	}
	if !reg.write(b.Fence()) {
		return false, errors.New("B's write refused")
	}
	// A resumes, unaware that its lease expired, and writes again.
	accepted := reg.write(a.Fence())
	_ = a.Unlock(ctx) // ErrNotHeld: not ours any more
	_ = b.Unlock(ctx)
	return accepted, nil
}

// lockRetry attempts every 10 ms until granted.
func lockRetry(ctx context.Context, l drivers.Locker, key string) (drivers.Lease, error) {
	for {
		lease, _, err := l.Lock(ctx, key)
		if err == nil {
			return lease, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
