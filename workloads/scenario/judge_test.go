package scenario

import (
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

func TestExpectMet(t *testing.T) {
	fenced := func(accepted, rejected int) *schema.FencingOutcome {
		return &schema.FencingOutcome{Rounds: 3, StaleAccepted: accepted, StaleRejected: rejected}
	}
	failover := func(a, b bool) *schema.FailoverOutcome { return &schema.FailoverOutcome{AGranted: a, BGranted: b} }
	for _, c := range []struct {
		name   string
		expect Expect
		o      schema.ScenarioOutcome
		want   bool
	}{
		{"nothing expected", Expect{}, schema.ScenarioOutcome{Violations: 5, ZeroSeconds: 2}, true},
		{"violations wanted, some", Expect{Violations: yes}, schema.ScenarioOutcome{Violations: 1}, true},
		{"violations wanted, none", Expect{Violations: yes}, schema.ScenarioOutcome{}, false},
		{"no violations wanted, none", Expect{Violations: No}, schema.ScenarioOutcome{}, true},
		{"no violations wanted, some", Expect{Violations: No}, schema.ScenarioOutcome{Violations: 2}, false},
		{"available throughout", Expect{Violations: No, Available: true}, schema.ScenarioOutcome{}, true},
		{"a second without a grant", Expect{Violations: No, Available: true}, schema.ScenarioOutcome{ZeroSeconds: 1}, false},
		{"unavailable long enough", Expect{MinOutage: time.Second}, schema.ScenarioOutcome{LongestOutageMS: 1000}, true},
		{"outage too short", Expect{MinOutage: time.Second}, schema.ScenarioOutcome{LongestOutageMS: 990}, false},
		{"recovers", Expect{Recovers: true}, schema.ScenarioOutcome{RecoveryMS: 0}, true},
		{"never recovers", Expect{Recovers: true}, schema.ScenarioOutcome{RecoveryMS: -1}, false},
		{"recovery not judged", Expect{}, schema.ScenarioOutcome{RecoveryMS: -1}, true},
		{"fenced: every stale write refused", Expect{Violations: No, Fenced: true}, schema.ScenarioOutcome{Fencing: fenced(0, 3)}, true},
		{"fenced: one refused of three", Expect{Fenced: true}, schema.ScenarioOutcome{Fencing: fenced(0, 1)}, false},
		{"fenced: one landed", Expect{Fenced: true}, schema.ScenarioOutcome{Fencing: fenced(1, 2)}, false},
		{"fenced: no fencing measured", Expect{Fenced: true}, schema.ScenarioOutcome{}, false},
		{"failover: both granted", Expect{Violations: yes, FirstGranted: yes, SecondGranted: yes},
			schema.ScenarioOutcome{Violations: 1, Failover: failover(true, true)}, true},
		{"failover: A not granted", Expect{FirstGranted: yes, SecondGranted: yes}, schema.ScenarioOutcome{Failover: failover(false, true)}, false},
		{"failover-wait: A not granted", Expect{Violations: No, FirstGranted: No, SecondGranted: yes},
			schema.ScenarioOutcome{Failover: failover(false, true)}, true},
		{"failover-wait: A granted", Expect{FirstGranted: No, SecondGranted: yes}, schema.ScenarioOutcome{Failover: failover(true, true)}, false},
		{"failover: B never granted", Expect{SecondGranted: yes}, schema.ScenarioOutcome{Failover: failover(true, false)}, false},
		{"failover: nothing measured", Expect{SecondGranted: yes}, schema.ScenarioOutcome{}, false},
	} {
		if got := c.expect.Met(c.o); got != c.want {
			t.Errorf("%s: Met = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCatalogueJudgement: each catalogue scenario's expectation accepts
// the outcome the debate predicts and refuses the opposite one.
func TestCatalogueJudgement(t *testing.T) {
	lost := schema.ScenarioOutcome{Violations: 4, LongestOutageMS: 2500, RecoveryMS: 30, ZeroSeconds: 2}
	safeDown := schema.ScenarioOutcome{LongestOutageMS: 2500, RecoveryMS: 30, ZeroSeconds: 2}
	safeUp := schema.ScenarioOutcome{LongestOutageMS: 40, RecoveryMS: -1}
	for _, c := range []struct {
		name      string
		good, bad schema.ScenarioOutcome
	}{
		{"minority-down", safeUp, safeDown},
		{"majority-down", safeDown, lost},
		{"restart-no-persistence", lost, safeDown},
		{"restart-no-persistence-delayed", safeDown, lost},
		{"clock-jump", lost, safeUp},
		{"clock-jump-within-drift", safeUp, lost},
	} {
		s, ok := Lookup(c.name)
		if !ok {
			t.Fatalf("%s: not in the catalogue", c.name)
		}
		if !s.Expect.Met(c.good) || s.Expect.Met(c.bad) {
			t.Errorf("%s (%s): good %v, bad %v", c.name, s.Expect.Words, s.Expect.Met(c.good), s.Expect.Met(c.bad))
		}
	}
}

func TestOutcomeOf(t *testing.T) {
	iv := func(from, to float64, acquired int64) schema.Availability {
		return schema.Availability{FromS: from, ToS: to, Acquired: acquired, Attempts: acquired + 1}
	}
	ev := func(atMS float64, action string) schema.FaultEvent {
		return schema.FaultEvent{AtMS: atMS, Action: action}
	}
	counts := schema.Counts{Violations: 2, Acquired: 600, Attempts: 900}
	for _, c := range []struct {
		name     string
		rep      *schema.FaultReport
		duration time.Duration
		want     schema.ScenarioOutcome
	}{
		{"no fault report: nothing repaired, all before", nil, 3 * time.Second,
			schema.ScenarioOutcome{After: -1, RecoveryMS: -1}},
		{"kill then restart: before, during, after", &schema.FaultReport{
			Events:     []schema.FaultEvent{ev(2000, "kill"), ev(2010, "ready"), ev(4000, "restart")},
			Timeline:   []schema.Availability{iv(0, 1, 100), iv(1, 2, 300), iv(2, 3, 0), iv(3, 4, 0), iv(4, 5, 50), iv(5, 6, 150), iv(6, 6.2, 0)},
			Recoveries: []schema.Recovery{{AtMS: 4000, AfterMS: 120}}, LongestOutageMS: 2100}, 6 * time.Second,
			schema.ScenarioOutcome{Before: 200, During: 0, After: 100, ZeroSeconds: 2, RecoveryMS: 120, LongestOutageMS: 2100}},
		{"kill never repaired: after is -1", &schema.FaultReport{
			Events:   []schema.FaultEvent{ev(2000, "kill")},
			Timeline: []schema.Availability{iv(0, 1, 100), iv(1, 2, 100), iv(2, 3, 80), iv(3, 4, 60)}}, 4 * time.Second,
			schema.ScenarioOutcome{Before: 100, During: 70, After: -1, RecoveryMS: -1}},
		{"stop and resume, inject and heal: the last repair counts", &schema.FaultReport{
			Events:     []schema.FaultEvent{ev(1000, "stop"), ev(1500, "inject"), ev(2000, "resume"), ev(3000, "heal")},
			Timeline:   []schema.Availability{iv(0, 1, 10), iv(1, 2, 0), iv(2, 3, 20), iv(3, 4, 40)},
			Recoveries: []schema.Recovery{{AtMS: 2000, AfterMS: 10}, {AtMS: 3000, AfterMS: -1}}}, 4 * time.Second,
			schema.ScenarioOutcome{Before: 10, During: 10, After: 40, ZeroSeconds: 1, RecoveryMS: -1}},
		{"half-second intervals count, shorter ones do not", &schema.FaultReport{
			Events:   []schema.FaultEvent{ev(1000, "kill"), ev(1500, "restart")},
			Timeline: []schema.Availability{iv(0, 0.5, 50), iv(0.5, 1, 50), iv(1, 1.4, 0), iv(1.5, 2, 0), iv(2, 2.1, 0)}}, 2 * time.Second,
			schema.ScenarioOutcome{Before: 100, After: 0, ZeroSeconds: 1, RecoveryMS: -1}},
	} {
		c.want.Violations, c.want.Acquired, c.want.Attempts = counts.Violations, counts.Acquired, counts.Attempts
		got := outcomeOf(schema.Run{Counts: counts, Faults: c.rep}, c.duration)
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

func TestRatio(t *testing.T) {
	if ratio(10, 0) != 0 || ratio(10, 4) != 2.5 {
		t.Errorf("ratio(10, 0) = %v, ratio(10, 4) = %v", ratio(10, 0), ratio(10, 4))
	}
}
