package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestSummaryV1RoundTrip: lockbench/v1 summaries that hold their measures
// under "extra" untyped (testdata/v1) load into the typed fields, nothing
// typed is left in Extra, and writing them again gives the same JSON.
func TestSummaryV1RoundTrip(t *testing.T) {
	cases := []struct {
		file  string
		check func(r Run) bool
	}{
		{"run-faults-pacing.json", func(r Run) bool {
			return r.Referee != nil && r.Referee.Fairness > 0 && r.Pacing != nil && r.Pacing.Rate == 300 &&
				r.Faults != nil && len(r.Faults.Specs) == 1 && r.Faults.Specs[0].At == "1s" && len(r.Faults.Events) == 3 &&
				len(r.Faults.Timeline) > 0 && len(r.Faults.Recoveries) == 1 && len(r.Faults.Grants10ms) > 0
		}},
		{"scenario.json", func(r Run) bool {
			return r.Scenario != nil && r.Scenario.Scenario == "minority-down" && r.Scenario.Expected != "" &&
				r.Faults != nil && r.Referee != nil
		}},
		{"compare-ceiling.json", func(r Run) bool {
			return r.VsSequential != nil && r.CeilingCyclesPerS != nil && *r.CeilingCyclesPerS > 0 &&
				r.OfCeiling != nil && r.CeilingCost != nil && r.CeilingCost.ClientCPUUSPerCycle > 0
		}},
		{"merged.json", func(r Run) bool {
			return r.MergedFrom == 2 && len(r.MergedIDs) == 2 && r.Window != nil && r.Window.End.After(r.Window.Start)
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join("testdata", "v1", c.file)
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ReadSummary(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Runs) == 0 {
				t.Fatal("no runs")
			}
			for _, r := range s.Runs {
				if !c.check(r) {
					t.Errorf("run %q: typed measures not loaded: %+v", r.Name, r)
				}
				if len(r.Extra) != 0 {
					t.Errorf("run %q: left in Extra: %v", r.Name, r.Extra)
				}
			}
			again, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(again, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("written again, the JSON differs:\n%s\nwant\n%s", again, raw)
			}
		})
	}
}

// TestRunExtraKeepsTheRest: measures without a typed field stay in Extra
// through a round trip, beside the typed ones; a typed field wins over an
// Extra entry of the same key.
func TestRunExtraKeepsTheRest(t *testing.T) {
	vs := 1.5
	r := Run{Name: "r", VsSequential: &vs, Extra: map[string]any{"offset_ms": -3.0, "vs_sequential": 9.0}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Run
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.VsSequential == nil || *back.VsSequential != 1.5 || back.Extra["offset_ms"] != -3.0 || len(back.Extra) != 1 {
		t.Errorf("%s read back as vs_sequential %v, extra %v", b, back.VsSequential, back.Extra)
	}
	plain, err := json.Marshal(Run{Name: "plain"})
	if err != nil {
		t.Fatal(err)
	}
	if containsKey(t, plain, "extra") {
		t.Errorf("a run without measures writes extra: %s", plain)
	}
}

func containsKey(t *testing.T, b []byte, key string) bool {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	_, ok := m[key]
	return ok
}
