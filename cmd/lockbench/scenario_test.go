package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/scenario"
)

func TestScenarioListAndBadInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stdout, _, code := runIn(ctx, "scenario")
	if code != 0 {
		t.Fatalf("scenario (list): exit %d", code)
	}
	if list, _, code := runIn(ctx, "scenario", "--list"); code != 0 || list != stdout {
		t.Errorf("scenario --list: exit %d, %q; want the list scenario prints without NAME", code, list)
	}
	for _, name := range []string{"minority-down", "majority-down", "restart-no-persistence", "restart-no-persistence-delayed",
		"clock-jump", "clock-jump-within-drift", "failover", "failover-wait", "client-pause"} {
		if !strings.Contains(stdout, "  "+name+" ") {
			t.Errorf("list lacks %s:\n%s", name, stdout)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"scenario", "nope"}, `scenario "nope": unknown (have minority-down,`},
		{[]string{"scenario", "all", "--json", filepath.Join(t.TempDir(), "no", "such", "dir", "s.json")}, "--json"},
		{[]string{"scenario", "all", "extra"}, `one scenario NAME or all, not "all extra"`},
	} {
		stdout, stderr, code := runIn(ctx, c.args...)
		if code != exit.Usage || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q: want exit 2 naming %q, nothing else", c.args, code, stderr, stdout, c.want)
		}
	}
}

// scenarioRows are one judged row of every kind, as scenario.Run returns
// them (the second not as expected).
func scenarioRows() []scenario.Result {
	all := scenario.All()
	pick := func(name string) scenario.Scenario { s, _ := scenario.Lookup(name); return s }
	return []scenario.Result{
		{Scenario: all[0], Runs: []schema.Run{{Name: "scenario/" + all[0].Name, Scenario: &schema.ScenarioOutcome{
			Scenario: all[0].Name, Violations: 0, Before: 900, During: 850, After: -1, RecoveryMS: -1, Expected: all[0].Expect.Words, AsExpect: true}}}},
		{Scenario: pick("failover"), Runs: []schema.Run{{Name: "scenario/failover", Backend: "single", Scenario: &schema.ScenarioOutcome{
			Scenario: "failover", Violations: 0, Expected: "violations > 0",
			Failover: &schema.FailoverOutcome{AGranted: true, BGranted: true, Promoted: true, FailoverMS: 1234}}}}},
		{Scenario: pick("client-pause"), Runs: []schema.Run{{Name: "scenario/client-pause/etcd", Backend: "etcd", Scenario: &schema.ScenarioOutcome{
			Scenario: "client-pause", Expected: "stale writes rejected", AsExpect: true,
			Fencing: &schema.FencingOutcome{Backend: "etcd", Rounds: 3, StaleRejected: 3}}}}},
	}
}

// TestScenarioTablesAndJSON: every kind prints its table, and --json holds
// every kind's rows with their typed outcome.
func TestScenarioTablesAndJSON(t *testing.T) {
	outs := scenarioRows()
	want := []string{"minority-down", "900", "850", "failover", "1234 ms", "NO", "client-pause", "etcd", "stale writes rejected"}
	var b strings.Builder
	var runs []schema.Run
	var list []scenario.Scenario
	for _, o := range outs {
		scenario.WriteTable(&b, o.Scenario.Kind, []scenario.Result{o})
		runs, list = append(runs, o.Runs...), append(list, o.Scenario)
	}
	for _, w := range want {
		if !strings.Contains(b.String(), w) {
			t.Errorf("tables lack %q:\n%s", w, b.String())
		}
	}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := scenario.WriteJSON(io.Discard, path, time.Now(), list, runs); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sum schema.Summary
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 3 {
		t.Fatalf("%d runs, want 3", len(sum.Runs))
	}
	for i, r := range sum.Runs {
		o := r.Scenario
		if o == nil || o.Scenario != list[i].Name || (i == 1) != (o.Failover != nil) || (i == 2) != (o.Fencing != nil) {
			t.Errorf("run %d (%s): outcome %+v", i, r.Name, o)
		}
	}
}

// TestScenarioExitStatus: exit 1 naming the scenario measured other than
// expected, its row still written; a failed scenario writes nothing.
func TestScenarioExitStatus(t *testing.T) {
	rows := map[string]scenario.Result{}
	for _, o := range scenarioRows() {
		rows[o.Scenario.Name] = o
	}
	failed := errors.New("scenario failover: redis-sentinel not found")
	saved := runScenario
	defer func() { runScenario = saved }()
	runScenario = func(_ context.Context, s scenario.Scenario, _ scenario.Observers) (scenario.Result, error) {
		if s.Name == "failover-wait" {
			return scenario.Result{}, failed
		}
		return rows[s.Name], nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dir := t.TempDir()
	for _, c := range []struct {
		name, stdout, stderr string
		code                 int
		rows                 int // in the JSON; -1: none written
	}{
		{"client-pause", "stale writes rejected", "", exit.OK, 1},
		{"failover", "1234 ms", "measured outcome differs from the expected one: failover", exit.Failure, 1},
		{"failover-wait", "", failed.Error(), exit.Failure, -1},
	} {
		path := filepath.Join(dir, c.name+".json")
		stdout, stderr, code := runIn(ctx, "scenario", c.name, "--json", path)
		if code != c.code || !strings.Contains(stdout, c.stdout) || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d, %q, %q", c.name, code, stdout, stderr, c.code, c.stdout, c.stderr)
		}
		var sum schema.Summary
		raw, err := os.ReadFile(path)
		switch {
		case c.rows < 0 && err == nil:
			t.Errorf("%s: a JSON written after a failure", c.name)
		case c.rows >= 0 && (err != nil || json.Unmarshal(raw, &sum) != nil || len(sum.Runs) != c.rows):
			t.Errorf("%s: JSON %v, %d runs; want %d", c.name, err, len(sum.Runs), c.rows)
		}
	}
}
