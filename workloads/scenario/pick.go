package scenario

import (
	"fmt"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results"
)

// Pick is the scenario name names, or the whole catalogue for "all".
func Pick(name string) ([]Scenario, error) {
	if name == "all" {
		return All(), nil
	}
	if s, ok := Lookup(name); ok {
		return []Scenario{s}, nil
	}
	return nil, fmt.Errorf("scenario %q: unknown (have %s, all)", name, strings.Join(Names(), ", "))
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

// NewSummary is the summary of the runs of list started at started: its
// config names the scenarios.
func NewSummary(started time.Time, list []Scenario, runs []results.Run) (*results.Summary, error) {
	names := make([]string, len(list))
	for i, s := range list {
		names[i] = s.Name
	}
	sum, err := results.NewSummary(started, map[string]any{"scenarios": names})
	if err != nil {
		return nil, err
	}
	sum.Runs = runs
	return sum, nil
}
