package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

func TestPick(t *testing.T) {
	first := All()[0].Name
	for _, c := range []struct {
		name string
		n    int
		err  string
	}{
		{"all", len(All()), ""},
		{first, 1, ""},
		{"nope", 0, `scenario "nope": unknown (have ` + first},
		{"", 0, "unknown"},
	} {
		got, err := pick(c.name)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Pick(%q): error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != c.n || (c.n == 1 && got[0].Name != c.name) {
			t.Errorf("Pick(%q) = %d scenarios, %v", c.name, len(got), err)
		}
	}
}

func TestHelp(t *testing.T) {
	h := Help()
	for _, s := range All() {
		if !strings.Contains(h, s.Name) || !strings.Contains(h, "expected: "+s.Expect.Words) {
			t.Errorf("help lacks %s or its expectation:\n%s", s.Name, h)
		}
	}
}

func TestNewSummary(t *testing.T) {
	list := All()[:2]
	runs := []schema.Run{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	sum, err := newSummary(time.Unix(1, 0), list, runs)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct{ Scenarios []string }
	if err := json.Unmarshal(sum.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 3 || len(cfg.Scenarios) != 2 || cfg.Scenarios[1] != list[1].Name || sum.Schema != schema.Schema {
		t.Errorf("summary %+v, config %+v", sum, cfg)
	}
}

// TestRunAll: scenarios run in order, one table per run of one kind, the
// ones measured otherwise than expected named; a failure ends with no runs.
func TestRunAll(t *testing.T) {
	sc := func(name string, k Kind) Scenario { return Scenario{Name: name, Kind: k} }
	list := []Scenario{sc("a", Faults), sc("b", Faults), sc("c", Failover), sc("d", Faults)}
	out := func(s Scenario, ok bool) Result {
		return Result{Scenario: s, Runs: []schema.Run{{Name: s.Name, Scenario: &schema.ScenarioOutcome{Scenario: s.Name, AsExpect: ok}}}}
	}
	boom := errors.New("boom")
	for _, c := range []struct {
		name   string
		run    runFunc
		tables []string // kind:count per table
		differ []string
		err    error
	}{
		{"as expected", func(_ context.Context, s Scenario, _ Observers) (Result, error) { return out(s, true), nil },
			[]string{"faults:2", "failover:1", "faults:1"}, nil, nil},
		{"c differs", func(_ context.Context, s Scenario, _ Observers) (Result, error) { return out(s, s.Name != "c"), nil },
			[]string{"faults:2", "failover:1", "faults:1"}, []string{"c"}, nil},
		{"c fails", func(_ context.Context, s Scenario, _ Observers) (Result, error) {
			if s.Name == "c" {
				return Result{}, boom
			}
			return out(s, true), nil
		}, []string{"faults:2"}, nil, boom},
	} {
		var tables []string
		runs, differ, err := runAll(context.Background(), list, Observers{}, c.run, func(k Kind, outs []Result) {
			tables = append(tables, fmt.Sprintf("%s:%d", k, len(outs)))
		})
		if !errors.Is(err, c.err) || !slices.Equal(tables, c.tables) || !slices.Equal(differ, c.differ) {
			t.Errorf("%s: tables %q differ %q err %v; want %q %q %v", c.name, tables, differ, err, c.tables, c.differ, c.err)
		}
		if want := 4; c.err == nil && len(runs) != want {
			t.Errorf("%s: %d runs, want %d", c.name, len(runs), want)
		}
		if c.err != nil && runs != nil {
			t.Errorf("%s: runs %v after a failure", c.name, runs)
		}
	}
}
