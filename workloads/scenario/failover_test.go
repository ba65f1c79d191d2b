package scenario

import (
	"encoding/json"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestFailoverRows: a failover's measure as its summary row, judged by
// each failover scenario's expectation.
func TestFailoverRows(t *testing.T) {
	measure := func(a bool, violations int64) failoverMeasure {
		return failoverMeasure{FailoverOutcome: schema.FailoverOutcome{AGranted: a, BGranted: true, Promoted: true, FailoverMS: 900},
			Violations: violations}
	}
	for _, c := range []struct {
		scenario string
		m        failoverMeasure
		want     bool
		counts   schema.Counts
	}{
		{"failover", measure(true, 1), true, schema.Counts{Attempts: 2, Acquired: 2, Cycles: 2, Violations: 1}},
		{"failover", measure(true, 0), false, schema.Counts{Attempts: 2, Acquired: 2, Cycles: 2}},
		{"failover", measure(false, 0), false, schema.Counts{Attempts: 2, Acquired: 1, Cycles: 1, Timeouts: 1}},
		{"failover-wait", measure(false, 0), true, schema.Counts{Attempts: 2, Acquired: 1, Cycles: 1, Timeouts: 1}},
		{"failover-wait", measure(true, 1), false, schema.Counts{Attempts: 2, Acquired: 2, Cycles: 2, Violations: 1}},
		{"failover-wait", measure(true, 0), false, schema.Counts{Attempts: 2, Acquired: 2, Cycles: 2}},
	} {
		s, _ := Lookup(c.scenario)
		r := c.m.run(s)
		o := r.Scenario
		if o == nil || o.AsExpect != c.want || r.Counts != c.counts || r.Name != "scenario/"+c.scenario || o.Scenario != c.scenario ||
			o.Failover == nil || *o.Failover != c.m.FailoverOutcome || o.Expected != s.Expect.Words {
			t.Errorf("%s %+v: row %+v outcome %+v; want as expected %v, counts %+v", c.scenario, c.m, r, o, c.want, c.counts)
		}
	}
}

// TestRowsRoundTrip: every kind's row keeps its typed outcome through a
// summary's JSON (under extra.scenario, as lockbench/v1 has it).
func TestRowsRoundTrip(t *testing.T) {
	faults, _ := Lookup("majority-down")
	cfg, err := faults.Config()
	if err != nil {
		t.Fatal(err)
	}
	pause, _ := Lookup("client-pause")
	failover, _ := Lookup("failover")
	rows := []schema.Run{
		faultsRow(faults, schema.Run{Counts: schema.Counts{Acquired: 10}, Faults: &schema.FaultReport{LongestOutageMS: 1500,
			Recoveries: []schema.Recovery{{AfterMS: 20}}}}, cfg),
		pauseRow(pause.Name, pause.Backends[1], schema.FencingOutcome{Backend: "etcd", Rounds: 3, StaleRejected: 3}),
		failoverMeasure{FailoverOutcome: schema.FailoverOutcome{AGranted: true, BGranted: true}, Violations: 1}.run(failover),
	}
	for _, r := range rows {
		if !r.Scenario.AsExpect {
			t.Errorf("%s: not as expected: %+v", r.Name, *r.Scenario)
		}
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var generic struct {
			Extra map[string]map[string]any `json:"extra"`
		}
		if err := json.Unmarshal(raw, &generic); err != nil || generic.Extra["scenario"]["as_expected"] != true {
			t.Errorf("%s: extra.scenario %v (%v)", r.Name, generic.Extra["scenario"], err)
		}
		var back schema.Run
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(r.Scenario)
		b, _ := json.Marshal(back.Scenario)
		if string(a) != string(b) {
			t.Errorf("%s: outcome %s came back as %s", r.Name, a, b)
		}
	}
}

func TestResultAsExpected(t *testing.T) {
	ok, no := &schema.ScenarioOutcome{AsExpect: true}, &schema.ScenarioOutcome{}
	for _, c := range []struct {
		name string
		runs []schema.Run
		want bool
	}{
		{"no rows", nil, false},
		{"one row as expected", []schema.Run{{Scenario: ok}}, true},
		{"one of two differs", []schema.Run{{Scenario: ok}, {Scenario: no}}, false},
		{"a row without outcome", []schema.Run{{Scenario: ok}, {}}, false},
	} {
		if got := (Result{Runs: c.runs}).AsExpected(); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
