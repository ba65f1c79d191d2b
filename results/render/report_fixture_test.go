package render

import (
	"encoding/json"
	"testing"

	"time"

	"github.com/lockbench/lockbench/results/internal/fixture"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

func newFixtureReport(title string) *Report {
	return &Report{Title: title, Generated: time.Unix(1e9, 0).UTC()}
}

// fixtureRunReport is what `report` makes of one `run --out DIR`.
func fixtureRunReport(t *testing.T) *Report {
	rep := newFixtureReport("run")
	r, l := fixture.Run(t, "redlock/goredis/fanout/uncontended", 1, 1) // a short run: one interval
	rep.AddSource("run/", fixture.Summary(r), map[string]record.RunLogs{r.Name: l})
	return rep
}

// fixtureCompareReport is what `report` makes of a `compare --out DIR`.
func fixtureCompareReport(t *testing.T) *Report {
	rep := newFixtureReport("compare </script><b>")
	var runs []schema.Run
	logs := map[string]record.RunLogs{}
	for k, name := range []string{"redlock/goredis/fanout/uncontended", "redlock/rueidis/auto/uncontended", "redlock/goredis/sequential/contended"} {
		r, l := fixture.Run(t, name, k+1, 4)
		runs, logs[name] = append(runs, r), l
	}
	rep.AddSource("compare/", fixture.Summary(runs...), logs)
	return rep
}

// fixtureMergeReport is what `report` makes of a `merge A B -o C`: the
// merged run from Merge itself.
func fixtureMergeReport(t *testing.T) *Report {
	name := "redlock/goredis/fanout/uncontended"
	var dirs []*rundir.RunDir
	for i := range 2 {
		r, l := fixture.Run(t, name, i+1, 4)
		s := fixture.Summary(r)
		s.Started = s.Started.Add(time.Duration(i) * time.Second)
		dirs = append(dirs, &rundir.RunDir{Dir: "in", Summary: s, Logs: map[string]record.RunLogs{name: l}})
	}
	sum, logs, err := rundir.Merge(dirs, true)
	if err != nil {
		t.Fatal(err)
	}
	rep := newFixtureReport("merge")
	rep.AddSource("merged/", sum, logs)
	return rep
}

// fixtureSweepReport is what `report` makes of a `sweep --out DIR`.
func fixtureSweepReport(t *testing.T) *Report {
	rep := newFixtureReport("sweep")
	var runs []schema.Run
	logs := map[string]record.RunLogs{}
	for k, load := range []string{"1", "2", "4"} {
		r, l := fixture.Run(t, "redlock/goredis/fanout/uncontended@workers="+load, k+1, 4)
		runs, logs[r.Name] = append(runs, r), l
	}
	rep.AddSource("sweep/", fixture.Summary(runs...), logs)
	rep.Sweeps = []any{schema.Sweep{Name: "redlock/goredis/fanout/uncontended", Op: "cycle", SLOUS: 2000, Stepped: "workers", Knee: 1,
		Steps: []schema.SweepStep{{Workers: 1, CyclesPerS: 1000, P99US: 500, OK: true}, {Workers: 2, CyclesPerS: 1900, P99US: 900, OK: true},
			{Workers: 4, CyclesPerS: 2500, P99US: 4000, Reason: "p99 over SLO"}},
		KneeInterval: []float64{2, 4}, SafeRate: 2, USL: &schema.USL{Lambda: 1000, Sigma: 0.05, Kappa: 0.02, PeakWorkers: 6.9, R2: 0.99}}}
	return rep
}

// fixtureScenarioReport is what `report` makes of a `scenario --json`
// file: runs with their summary percentiles, no interval logs, no versions.
func fixtureScenarioReport(t *testing.T) *Report {
	rep := newFixtureReport("scenario")
	var runs []schema.Run
	for i, name := range []string{"kill-minority", "partition-majority"} {
		p := schema.Percentiles{Count: 100, P50: 100, P90: 200 * float64(i+1), P99: 300 * float64(i+1), P999: 400 * float64(i+1), Max: 500 * float64(i+1)}
		// As scenario writes them: the outcome and the faults' timeline (JSON
		// round trip: Extra holds decoded JSON).
		extra := map[string]any{}
		if err := json.Unmarshal([]byte(`{"scenario": {"scenario": "`+name+`", "violations": 0, "acquired_per_s_before": 218,
			"acquired_per_s_during": 156, "acquired_per_s_after": -1, "longest_outage_ms": 140, "recovery_ms": -1,
			"expected": "available throughout, 0 violations", "as_expected": true},
			"faults": {"events": [{"at_ms": 2002.7, "action": "kill", "master": 2}],
			"timeline": [{"from_s": 0, "to_s": 1, "acquired": 242}, {"from_s": 1, "to_s": 2, "acquired": 178},
			{"from_s": 2, "to_s": 3, "acquired": 78}, {"from_s": 3, "to_s": 4, "acquired": 172}]}}`), &extra); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, schema.Run{Name: name, Workers: 4, Throughput: schema.Throughput{CyclesPerS: 900 / float64(i+1)},
			LatencyUS: map[string]schema.Percentiles{"cycle": p, "acquire": p},
			Counts:    schema.Counts{Attempts: 120, Acquired: 100, Cycles: 100, Busy: 20}, Extra: extra})
	}
	s := fixture.Summary(runs...)
	s.Versions = nil
	rep.AddSource("scenarios.json", s, nil)
	return rep
}

// fixtureSafetyReport is what `report` makes of a `safety --json` file.
func fixtureSafetyReport(t *testing.T) *Report {
	rep := newFixtureReport("safety")
	rep.AddSafety("safety.json", fixture.SafetySweep(t))
	return rep
}

// fixtureSafetyRunReport is what `report` makes of a `safety --json` file
// beside a `run --out DIR`.
func fixtureSafetyRunReport(t *testing.T) *Report {
	rep := fixtureRunReport(t)
	rep.AddSafety("safety.json", fixture.SafetySweep(t))
	return rep
}

var reportFixtures = []struct {
	kind string
	make func(t *testing.T) *Report
}{
	{"run", fixtureRunReport},
	{"compare", fixtureCompareReport},
	{"merge", fixtureMergeReport},
	{"sweep", fixtureSweepReport},
	{"scenario", fixtureScenarioReport},
	{"safety", fixtureSafetyReport},
	{"safety beside a run", fixtureSafetyRunReport},
}
