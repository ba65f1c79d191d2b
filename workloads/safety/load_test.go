package safety

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
)

// measureFake measures one pause point on the in-memory lock service.
func measureFake(t *testing.T, ratio float64, fencing bool) Point {
	t.Helper()
	return measureFakeFault(t, FaultPause, ratio, fencing, 100*time.Millisecond)
}

// measureFakeFault measures one point of fault on the in-memory lock
// service: the holder's part of it (its pause, or its hold until the
// validity nearly ends), nothing played on servers.
func measureFakeFault(t *testing.T, fault string, ratio float64, fencing bool, ttl time.Duration) Point {
	t.Helper()
	c := Config{Grants: 30, Keys: 3, TTL: ttl, RetryDelay: 5 * time.Millisecond, PointLimit: time.Minute}.withDefaults()
	ld := &load{locker: newFakeLocker(c.TTL), tokens: leaseTokens{}, spec: pointSpec{Fault: fault, Backend: "fake", Ratio: ratio, Fencing: fencing},
		cfg: c, prefix: "k"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := ld.measure(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The load's bookkeeping, whatever the schedule: every grant writes twice,
// every stale write is accepted or refused, the violations are the
// referee's plus the accepted stale writes, and each pause lasted at
// least what was injected on the holder's own clock.
func TestLoadInvariants(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ratio   float64
		fencing bool
	}{{0.5, false}, {2, false}, {2, true}} {
		p := measureFake(t, c.ratio, c.fencing)
		name := pointLine(p)
		switch {
		case p.Grants < 30:
			t.Errorf("%s: want the budget of 30 grants", name)
		case p.Writes != 2*p.Grants:
			t.Errorf("%s: %d writes, want 2 per grant", name, p.Writes)
		case p.Stale != p.StaleAccepted+p.StaleRejected:
			t.Errorf("%s: stale %d ≠ accepted %d + refused %d", name, p.Stale, p.StaleAccepted, p.StaleRejected)
		case p.Violations != p.LockViolations+p.StaleAccepted:
			t.Errorf("%s: violations %d ≠ lock %d + stale accepted %d", name, p.Violations, p.LockViolations, p.StaleAccepted)
		case p.MeasuredPauseMinMS < p.PauseMS:
			t.Errorf("%s: a pause of %.1f ms measured %.1f ms", name, p.PauseMS, p.MeasuredPauseMinMS)
		case p.Workers != 3*faultKinds[FaultPause].WorkersPerKey(c.ratio):
			t.Errorf("%s: %d workers", name, p.Workers)
		}
		if p.Violations == 0 && !(p.PerMillionHi > 0) {
			t.Errorf("%s: no violation and no upper bound", name)
		}
	}
}

// A pause of twice the TTL on a correct lock service: the successor is
// granted and writes while the holder sleeps, so the holder's exit write
// is stale. Without fencing it lands; with the service's fences checked it
// is refused, every time (the fences follow the grant order).
func TestLoadPauseBeyondTTL(t *testing.T) {
	t.Parallel()
	off := measureFake(t, 2, false)
	if off.StaleAccepted == 0 {
		t.Errorf("no fencing: %s, want stale writes accepted", pointLine(off))
	}
	on := measureFake(t, 2, true)
	if on.StaleAccepted != 0 || on.StaleRejected == 0 {
		t.Errorf("fencing: %s, want stale writes refused, none accepted", pointLine(on))
	}
	if on.LockViolations != 0 || off.LockViolations != 0 {
		t.Errorf("the in-memory service granted overlapping leases: %d, %d", off.LockViolations, on.LockViolations)
	}
}

// A rerun of a point with a high rate lands inside the first run's
// interval: the rate is a property of the fault, not of one run.
func TestLoadRerunInsideInterval(t *testing.T) {
	t.Parallel()
	first := measureFake(t, 2, false)
	again := measureFake(t, 2, false)
	if first.Violations == 0 {
		t.Fatalf("first run: %s, want violations", pointLine(first))
	}
	if again.PerMillion < first.PerMillionLo || again.PerMillion > first.PerMillionHi {
		t.Errorf("rerun %s outside the first run's interval [%s, %s]", num(again.PerMillion), num(first.PerMillionLo), num(first.PerMillionHi))
	}
}

// A holder that keeps its lease for all of its validity but the margin,
// on a correct lock service with nothing played on it: the service grants
// no lock twice, and no stale write lands but the exit write of a holder
// the host ran too late to make it inside its validity (Point.Overran: a
// pause the machine played, which a loaded host may play however long the
// margin), whatever the fault's magnitude would have been; the faults are
// the servers', not the holder's.
func TestLoadHoldsValidity(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		fault   string
		fencing bool
	}{{FaultClockJump, false}, {FaultDelay, true}, {FaultRestart, false}} {
		t.Run(c.fault, func(t *testing.T) {
			t.Parallel()
			const ttl = 400 * time.Millisecond
			p := measureFakeFault(t, c.fault, 1, c.fencing, ttl)
			name := pointLine(p)
			t.Log(name)
			switch {
			case p.Grants < 30 || p.Writes != 2*p.Grants:
				t.Errorf("%s: %d writes, want 2 per grant of the budget of 30", name, p.Writes)
			case p.LockViolations != 0:
				t.Errorf("%s: a correct service granted a lock twice", name)
			case p.Stale > p.Overran:
				t.Errorf("%s: %d stale writes, %d of them by holders the host ran late: a holder that meant to end inside its validity did not",
					name, p.Stale, p.Overran)
			case p.PauseMS != 0 || p.MagnitudeMS != float64(ttl.Milliseconds()):
				t.Errorf("%s: pause %v ms, magnitude %v ms", name, p.PauseMS, p.MagnitudeMS)
			}
			// Each grant holds about a TTL: 10 grants a key take ~10 TTLs.
			if p.ElapsedMS < 0.8*10*float64(ttl.Milliseconds()) {
				t.Errorf("%s: %.0f ms for 10 grants a key of a %v TTL: the holders did not keep their leases", name, p.ElapsedMS, ttl)
			}
		})
	}
}

// lateLocker is a locker whose every attempt starts late, as a worker the
// host schedules last; it remembers how each key's first attempt ended.
type lateLocker struct {
	drivers.Locker
	late  time.Duration
	mu    sync.Mutex
	first map[string]error
}

func (l *lateLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	time.Sleep(l.late)
	lease, att, err := l.Locker.Lock(ctx, key)
	l.mu.Lock()
	if _, seen := l.first[key]; !seen {
		l.first[key] = err
	}
	l.mu.Unlock()
	return lease, att, err
}

// A fault with a cut-off worker is about the grants it makes on its bare
// quorum: each key's first grant is the cut-off worker's, even when the
// host runs it after the key's other workers.
func TestLoadCutOffGrantsFirst(t *testing.T) {
	t.Parallel()
	c := Config{Grants: 12, Keys: 3, TTL: 100 * time.Millisecond, RetryDelay: 5 * time.Millisecond, PointLimit: time.Minute}.withDefaults()
	fake := newFakeLocker(c.TTL)
	late := &lateLocker{Locker: fake, late: 30 * time.Millisecond, first: map[string]error{}}
	ld := &load{locker: fake, cutOff: late, tokens: leaseTokens{},
		spec: pointSpec{Fault: FaultClockJump, Backend: "fake", Ratio: 0.01}, cfg: c, prefix: "k"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := ld.measure(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(late.first) != c.Keys {
		t.Fatalf("the cut-off workers tried %d keys, want %d", len(late.first), c.Keys)
	}
	for key, err := range late.first {
		if err != nil {
			t.Errorf("key %s: the cut-off worker's first attempt: %v, want the key's first grant", key, err)
		}
	}
	if p.CutOffGrants < int64(c.Keys) {
		t.Errorf("%s: %d cut-off grants, want at least one a key", pointLine(p), p.CutOffGrants)
	}
}
