package safety

import (
	"context"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
)

// A rerun of a point with a high rate lands inside the first run's
// interval: a pause of three TTLs on Redlock without fencing, measured
// twice, each time on servers of its own as two invocations of lockbench
// safety would. The first's 95 % interval must stand well above zero (its
// lower bound over half the grants) and the second's rate lie inside it.
//
// Why the test asserts the rerun's rate inside the interval, not only two
// intervals that overlap: were the violations a Poisson count, a second
// count of the same mean would land inside the first's interval less often
// than the nominal 95 % — about 83 % of the time, since both counts vary
// (|Z| < 1.96/√2) — and such a test would fail one run in six by chance.
// This point's count is nearly certain instead: a paused holder wakes two
// whole TTLs after its key expired, so every grant but each key's last is
// overtaken by its successor (violations = grants − keys, seen in every
// measurement of the point), and only the few grants past the budget
// vary. Two TTLs, not one: the successor must be granted and make its
// entry write before the paused holder wakes, and a loaded host, two
// suites side by side, left one TTL too short for about a fifth of the
// grants (70 of 100), while a second run on a less busy moment saw 87 of
// 97 — the count then measured the host, not the fault. The cycle stays a
// TTL a grant (one more waiting worker a key), so the time is the same. So the assertion does not fail by chance, and it still means
// something: with ~88 violations the interval spans about −20 % to +23 %
// of the rate, so a rerun that measures a different rate (servers or keys
// left from the first run, counts that depend on the machine's load)
// fails it. 96 grants over 8 keys at a 300 ms TTL take about 5 s a run.
func TestRerunLandsInInterval(t *testing.T) {
	testenv.Servers(t)
	c := Config{Backends: []string{"redlock"}, Ratios: Ratios{3}, Fencing: FencingOff,
		Grants: 96, Keys: 8, TTL: 300 * time.Millisecond, RetryDelay: 20 * time.Millisecond, PointLimit: 20 * time.Second}
	var runs [2]Point
	for i := range runs {
		ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
		res, err := Run(ctx, c, nil)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Points) != 1 || res.Interrupted {
			t.Fatalf("run %d: %d points (interrupted %v), want 1", i+1, len(res.Points), res.Interrupted)
		}
		runs[i] = res.Points[0]
		t.Logf("run %d: %s", i+1, pointLine(runs[i]))
	}
	first, rerun := runs[0], runs[1]
	if !(first.PerMillionLo > 0.5*perMillion) {
		t.Fatalf("first run: %d violations of %d grants, interval [%.0f, %.0f] per 10⁶: not well above zero",
			first.Violations, first.Grants, first.PerMillionLo, first.PerMillionHi)
	}
	if rerun.PerMillion < first.PerMillionLo || rerun.PerMillion > first.PerMillionHi {
		t.Errorf("rerun: %.0f per 10⁶ (%d of %d grants), outside the first run's interval [%.0f, %.0f] (%d of %d)",
			rerun.PerMillion, rerun.Violations, rerun.Grants, first.PerMillionLo, first.PerMillionHi, first.Violations, first.Grants)
	}
}
