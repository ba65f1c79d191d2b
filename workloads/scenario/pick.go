package scenario

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
)

// pick is the scenario name names, or the whole catalogue for "all".
func pick(name string) ([]Scenario, error) {
	if name == "all" {
		return All(), nil
	}
	if s, ok := Lookup(name); ok {
		return []Scenario{s}, nil
	}
	return nil, fmt.Errorf("scenario %q: unknown (have %s, all)", name, strings.Join(catalogueNames(), ", "))
}

// Help lists the catalogue: each scenario's name, what it does and what it
// is expected to show.
func Help() string {
	var b strings.Builder
	for _, s := range All() {
		fmt.Fprintf(&b, "  %-31s %s\n  %-31s expected: %s\n", s.Name, s.About, "", s.Expect.Words)
	}
	return b.String()
}

// newSummary is the summary of the runs of list started at started: its
// config names the scenarios.
func newSummary(started time.Time, list []Scenario, runs []schema.Run) (*schema.Summary, error) {
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.Name
	}
	sum, err := schema.NewSummary(started, map[string]any{"scenarios": names})
	if err != nil {
		return nil, err
	}
	sum.Runs = runs
	return sum, nil
}

// runFunc measures one scenario: Run, or a stand-in in tests.
type runFunc func(context.Context, Scenario, Observers) (Result, error)

// WriteJSON writes the summary of the runs of list started at started
// (NewSummary) to the file path, or to stdout for "-". A failed write is
// an *output.Error of Dest "json".
func WriteJSON(stdout io.Writer, path string, started time.Time, list []Scenario, runs []schema.Run) error {
	sum, err := newSummary(started, list, runs)
	if err != nil {
		return err
	}
	return output.Writer{Stdout: stdout, NoTable: true, JSON: path}.Write(sum, nil)
}

// runAll measures list in order with run and hands each group of
// consecutive scenarios of one kind to done (a table per kind). It returns
// every run measured and the names of the scenarios whose outcome differs
// from the expected one; a scenario that fails to run ends it with no runs.
func runAll(ctx context.Context, list []Scenario, obs Observers, run runFunc, done func(Kind, []Result)) (runs []schema.Run, differ []string, err error) {
	for len(list) > 0 {
		n := 1
		for n < len(list) && list[n].Kind == list[0].Kind {
			n++
		}
		var outs []Result
		for _, s := range list[:n] {
			o, err := run(ctx, s, obs)
			if err != nil {
				return nil, nil, err
			}
			outs = append(outs, o)
		}
		done(list[0].Kind, outs)
		for _, o := range outs {
			runs = append(runs, o.Runs...)
			if !o.AsExpected() {
				differ = append(differ, o.Scenario.Name)
			}
		}
		list = list[n:]
	}
	return runs, differ, nil
}
