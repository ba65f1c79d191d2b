package safety

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// A short Redlock grid on real masters: the pause each holder measured on
// its own clock is the injected one (never shorter: a timer does not fire
// early; longer by no more than scheduling delay), a pause of twice the
// TTL lands stale writes without fencing and none with it, and a point
// without violations is bounded above.
func TestPauseRedlock(t *testing.T) {
	testenv.Servers(t)
	c := Config{Backends: []string{"redlock"}, Ratios: Ratios{0.5, 2}, Fencing: FencingBoth,
		Grants: 40, Keys: 4, TTL: 300 * time.Millisecond, RetryDelay: 20 * time.Millisecond, PointLimit: 20 * time.Second}
	for _, p := range pausePoints(t, c, slow.D(2*time.Minute), slow.D(100*time.Millisecond)) {
		name := pointLine(p)
		if p.Ratio == 2 && p.Fencing == FencingOff && p.Violations == 0 {
			t.Errorf("%s: a pause of twice the TTL without fencing, and no violation", name)
		}
		if p.Ratio == 2 && p.Fencing == FencingOn && p.StaleRejected == 0 {
			t.Errorf("%s: a pause of twice the TTL with fencing refused nothing", name)
		}
	}
}

// The faults played on real masters, a small grid each: a clock jump of a
// whole TTL on one of a bare quorum's masters breaks Redlock without
// fencing and lands no stale write with it, one inside the drift
// allowance never lets a lock be granted twice; a majority restarted
// empty after the TTL and a minority answering late grant no lock twice.
// Every point's schedule played without an error.
func TestFaultsRedlock(t *testing.T) {
	testenv.Servers(t)
	base := Config{Backends: []string{"redlock"}, Grants: 24, Keys: 4, TTL: 500 * time.Millisecond,
		RetryDelay: 20 * time.Millisecond, PointLimit: 20 * time.Second}
	for _, c := range []struct {
		fault   string
		ratios  Ratios
		fencing Fencing
		check   func(p Point) string // "" fine
		// all judges the points together (nil: nothing more): a lock
		// granted twice does not depend on fencing, which only decides
		// whether the stale write lands, so the fencing modes' points are
		// one sample of the fault.
		all func(ps []Point) string
	}{
		{FaultClockJump, Ratios{0.01}, FencingOff, func(p Point) string {
			switch {
			case p.CutOffGrants == 0:
				return "no grant on a bare quorum"
			case p.LockViolations != 0:
				return "a jump inside the drift allowance granted a lock twice"
			}
			return ""
		}, nil},
		{FaultClockJump, Ratios{1}, FencingBoth, func(p Point) string {
			switch {
			case p.CutOffGrants == 0:
				return "no grant on a bare quorum"
			case p.Fencing == FencingOn && p.StaleAccepted != 0:
				return "fencing accepted a stale write"
			}
			return ""
		}, func(ps []Point) string {
			for _, p := range ps {
				if p.Violations > 0 {
					return ""
				}
			}
			return "a jump of a whole TTL and no lock granted twice"
		}},
		{FaultRestart, Ratios{1}, FencingOff, func(p Point) string {
			if p.LockViolations != 0 {
				return "a restart delayed by the TTL granted a lock twice"
			}
			return ""
		}, nil},
		{FaultDelay, Ratios{0.5}, FencingOff, func(p Point) string {
			if p.LockViolations != 0 {
				return "a late minority granted a lock twice"
			}
			return ""
		}, nil},
	} {
		t.Run(fmt.Sprintf("%s %s", c.fault, c.ratios.String()), func(t *testing.T) {
			cfg := base
			cfg.Fault, cfg.Ratios, cfg.Fencing = c.fault, c.ratios, c.fencing
			ctx, cancel := context.WithTimeout(context.Background(), slow.D(2*time.Minute))
			defer cancel()
			res, err := Run(ctx, cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := len(c.ratios) * len(c.fencing.modes()); len(res.Points) != want {
				t.Fatalf("%d points, want %d", len(res.Points), want)
			}
			for _, p := range res.Points {
				name := pointLine(p)
				t.Log(name)
				if p.FaultEvents == 0 || len(p.FaultErrors) > 0 {
					t.Errorf("%s: %d fault events, errors %q", name, p.FaultEvents, p.FaultErrors)
				}
				if p.Violations == 0 && !(p.PerMillionHi > 0) {
					t.Errorf("%s: no violation and no upper bound", name)
				}
				if why := c.check(p); why != "" {
					t.Errorf("%s: %s", name, why)
				}
			}
			if c.all != nil {
				if why := c.all(res.Points); why != "" {
					t.Errorf("%s %s, %d points: %s", c.fault, c.ratios.String(), len(res.Points), why)
				}
			}
		})
	}
}

// Locks their client library keeps alive (a ZooKeeper session, a
// PostgreSQL session, rueidislock's own extending goroutine) under a pause of the holder, which is silenced for
// it (every worker behind proxies of its own): the holders' clocks read
// the injected pause; a ZooKeeper session silenced for twice its timeout
// expires (as does a rueidislock key its silenced holder cannot extend)
// and a waiting worker is granted the key, so the paused holder's
// write lands stale without fencing and is refused by its token with it;
// a PostgreSQL advisory lock lives with its session, which silence does
// not end: no violation at any pause, and the paused holders' writes are
// never overtaken.
func TestPauseSilenced(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	for _, backend := range []string{"zookeeper", "postgres", "rueidislock"} {
		lapses := backend != "postgres"
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			c := Config{Backends: []string{backend}, Ratios: Ratios{0.5, 2}, Fencing: FencingBoth,
				Grants: 16, Keys: 4, TTL: time.Second, RetryDelay: 20 * time.Millisecond, PointLimit: 30 * time.Second}
			for _, p := range pausePoints(t, c, slow.D(3*time.Minute), slow.D(200*time.Millisecond)) {
				name := pointLine(p)
				switch {
				case p.LockViolations != 0 && backend == "rueidislock" && p.WallClockStepMS >= wallStepNoted:
					// Its keys expire by the wall clock, which moved.
					t.Logf("%s: the referee saw %d grants overlap, the host's wall clock stepped %+.1f ms: not judged", name, p.LockViolations, p.WallClockStepMS)
				case p.LockViolations != 0:
					t.Errorf("%s: the referee saw %d grants overlap (wall clock step %+.1f ms)", name, p.LockViolations, p.WallClockStepMS)
				}
				switch {
				case !lapses && p.Violations+p.StaleRejected != 0:
					t.Errorf("%s: a silent session's lock was overtaken (%d violations, %d refused)", name, p.Violations, p.StaleRejected)
				case lapses && p.Ratio == 2 && p.Fencing == FencingOff && p.Violations == 0:
					t.Errorf("%s: a holder silenced for twice its TTL, and no violation", name)
				case lapses && p.Ratio == 2 && p.Fencing == FencingOn && p.StaleRejected == 0:
					t.Errorf("%s: a holder silenced for twice its TTL, and fencing refused nothing", name)
				case lapses && p.Ratio == 0.5 && p.Violations+p.StaleRejected != 0:
					t.Errorf("%s: a holder silenced for half its TTL lost its lock", name)
				}
			}
		})
	}
}

// pausePoints runs c's four pause points (two ratios × fencing both)
// within limit and checks what every point must show: the holders' clocks
// read the injected pause (longer by no more than slack), the grant budget
// was met, a point without violations is bounded above, and fencing
// accepted no stale write.
func pausePoints(t *testing.T, c Config, limit, slack time.Duration) []Point {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	res, err := Run(ctx, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 4 {
		t.Fatalf("%d points, want 4", len(res.Points))
	}
	for _, p := range res.Points {
		name := pointLine(p)
		t.Log(name)
		if p.MeasuredPauseMinMS < p.PauseMS || p.MeasuredPauseMaxMS > p.PauseMS+ms(slack) {
			t.Errorf("%s: measured pauses [%.1f, %.1f] ms, injected %.1f ms (slack %v)",
				name, p.MeasuredPauseMinMS, p.MeasuredPauseMaxMS, p.PauseMS, slack)
		}
		if p.Grants < int64(c.Grants) {
			t.Errorf("%s: %d grants, want the budget %d", name, p.Grants, c.Grants)
		}
		if p.Violations == 0 && !(p.PerMillionHi > 0) {
			t.Errorf("%s: no violation and no upper bound", name)
		}
		if p.Fencing == FencingOn && p.StaleAccepted != 0 {
			t.Errorf("%s: fencing accepted %d stale writes", name, p.StaleAccepted)
		}
	}
	return res.Points
}

// The failover faults on a real Sentinel pair, a TTL well over the
// failover's seconds: grants made while replication was held back are
// lost with the master, and the replica the Sentinel promotes grants
// their keys again inside their validity, at most once a key for the one
// failover; with WAIT 1 those grants are refused and none is granted
// twice. The Sentinel's promotion is seen, every fault event played.
func TestFailover(t *testing.T) {
	testenv.Servers(t)
	t.Parallel()
	for _, fault := range []string{FaultFailover, FaultFailoverWait} {
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			c := Config{Fault: fault, Backends: []string{"single"}, Ratios: Ratios{0.5}, Fencing: FencingOff,
				Grants: 16, Keys: 16, TTL: 5 * time.Second, PointLimit: time.Minute}
			ctx, cancel := context.WithTimeout(context.Background(), slow.D(3*time.Minute))
			defer cancel()
			res, err := Run(ctx, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Points) != 1 {
				t.Fatalf("%d points, want 1", len(res.Points))
			}
			p := res.Points[0]
			name := pointLine(p)
			t.Log(name)
			switch {
			case p.FaultEvents < 3 || len(p.FaultErrors) > 0:
				t.Errorf("%s: %d fault events (want the hold, the kill, the restart), errors %q", name, p.FaultEvents, p.FaultErrors)
			case p.FailoverMS <= 0:
				t.Errorf("%s: no promotion seen", name)
			case fault == FaultFailover && p.LockViolations == 0:
				t.Errorf("%s: grants lost with the master for half a TTL, and none granted twice", name)
			case fault == FaultFailover && math.Abs(float64(p.LockViolations)-lostAndRegranted(c, p)) > 3:
				t.Errorf("%s: %d grants overlapped, where a hold of %v with a failover of %.0f ms loses about %.1f still valid",
					name, p.LockViolations, time.Duration(p.Ratio*float64(c.TTL)), p.FailoverMS, lostAndRegranted(c, p))
			case fault == FaultFailoverWait && p.LockViolations != 0:
				t.Errorf("%s: WAIT 1 and a grant overlapped", name)
			}
		})
	}
}

// lostAndRegranted is how many of c's keys a failover point should see
// granted twice: the keys' grants come one a cycle (a holder keeps its
// lease until TTL/20 before its validity ends, then the waiting worker
// takes it) at phases spread evenly, and a key's grant is granted again
// inside its use when it came in the held-back window and its use outlasts
// the promotion: the window's share of a cycle, up to the use left after
// the failover.
func lostAndRegranted(c Config, p Point) float64 {
	c = c.withDefaults()
	ttl := c.TTL.Seconds()
	use := ttl * (1 - 1.0/validityMargin)
	cycle := use + c.RetryDelay.Seconds()
	window := min(p.Ratio*ttl, use-p.FailoverMS/1e3)
	return float64(c.Keys) * max(0, window) / cycle
}
