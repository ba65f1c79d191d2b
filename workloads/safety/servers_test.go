package safety

import (
	"context"
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
		injected := ms(c.pause(p.Ratio))
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
