package scenario

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
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
		got, err := Pick(c.name)
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
	runs := []results.Run{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	sum, err := NewSummary(time.Unix(1, 0), list, runs)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct{ Scenarios []string }
	if err := json.Unmarshal(sum.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 3 || len(cfg.Scenarios) != 2 || cfg.Scenarios[1] != list[1].Name || sum.Schema != results.Schema {
		t.Errorf("summary %+v, config %+v", sum, cfg)
	}
}
