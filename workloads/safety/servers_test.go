package safety

import (
	"context"
	"fmt"
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
	ctx, cancel := context.WithTimeout(context.Background(), slow.D(2*time.Minute))
	defer cancel()
	res, err := Run(ctx, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 4 {
		t.Fatalf("%d points, want 4", len(res.Points))
	}
	slack := slow.D(100 * time.Millisecond)
	for _, p := range res.Points {
		name := pointLine(p)
		t.Log(name)
		injected := p.PauseMS
		if p.MeasuredPauseMinMS < injected || p.MeasuredPauseMaxMS > injected+ms(slack) {
			t.Errorf("%s: measured pauses [%.1f, %.1f] ms, injected %.1f ms (slack %v)",
				name, p.MeasuredPauseMinMS, p.MeasuredPauseMaxMS, injected, slack)
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
	}{
		{FaultClockJump, Ratios{0.01}, FencingOff, func(p Point) string {
			switch {
			case p.CutOffGrants == 0:
				return "no grant on a bare quorum"
			case p.LockViolations != 0:
				return "a jump inside the drift allowance granted a lock twice"
			}
			return ""
		}},
		{FaultClockJump, Ratios{1}, FencingBoth, func(p Point) string {
			switch {
			case p.CutOffGrants == 0:
				return "no grant on a bare quorum"
			case p.Fencing == FencingOff && p.Violations == 0:
				return "a jump of a whole TTL and no violation"
			case p.Fencing == FencingOn && p.StaleAccepted != 0:
				return "fencing accepted a stale write"
			}
			return ""
		}},
		{FaultRestart, Ratios{1}, FencingOff, func(p Point) string {
			if p.LockViolations != 0 {
				return "a restart delayed by the TTL granted a lock twice"
			}
			return ""
		}},
		{FaultDelay, Ratios{0.5}, FencingOff, func(p Point) string {
			if p.LockViolations != 0 {
				return "a late minority granted a lock twice"
			}
			return ""
		}},
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
		})
	}
}
