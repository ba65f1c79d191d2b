package scenario

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
)

// TestRequestPick: the name picks the scenarios; a JSON file that cannot
// be written, or is the command's stderr, is a field error of JSON, before
// anything runs.
func TestRequestPick(t *testing.T) {
	dir := t.TempDir()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	for _, c := range []struct {
		name string
		req  Request
		n    int    // scenarios picked
		err  string // "" for none
	}{
		{"one", Request{Name: "failover"}, 1, ""},
		{"all, json to stdout", Request{Name: "all", JSON: "-"}, len(All()), ""},
		{"json file", Request{Name: "all", JSON: filepath.Join(dir, "s.json")}, len(All()), ""},
		{"unknown", Request{Name: "nope", JSON: filepath.Join(dir, "none", "s.json")}, 0, `scenario "nope": unknown`},
		{"json dir missing", Request{Name: "all", JSON: filepath.Join(dir, "none", "s.json")}, 0, `JSON "` + filepath.Join(dir, "none", "s.json") + `": directory`},
		{"json on stderr", Request{Name: "all", JSON: stderr.Name()}, 0, `JSON "` + stderr.Name() + `": is this command's stdout or stderr`},
	} {
		list, err := c.req.Pick(nil, stderr)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q…", c.name, err, c.err)
			}
			continue
		}
		if err != nil || len(list) != c.n {
			t.Errorf("%s: %d scenarios, error %v; want %d", c.name, len(list), err, c.n)
		}
	}
	var fe *fielderr.Error
	if _, err := (Request{Name: "all", JSON: dir}).Pick(nil, nil); !errors.As(err, &fe) || fe.Field != "JSON" {
		t.Errorf("json a directory: %v, want a field error of JSON", err)
	}
}

// TestRequestRun: tables on stdout (stderr when the JSON takes stdout),
// the JSON with every row also when one differs from the expected, none
// after a failure, and a failed write named by its destination.
func TestRequestRun(t *testing.T) {
	dir := t.TempDir()
	a, _ := Lookup("minority-down")
	b, _ := Lookup("majority-down")
	list := []Scenario{a, b}
	row := func(s Scenario, ok bool) Result {
		return Result{Scenario: s, Runs: []schema.Run{{Name: "scenario/" + s.Name, Scenario: &schema.ScenarioOutcome{Scenario: s.Name, Expected: s.Expect.Words, AsExpect: ok}}}}
	}
	bDiffers := func(_ context.Context, s Scenario, _ Observers) (Result, error) {
		return row(s, s.Name != b.Name), nil
	}
	boom := errors.New("boom")
	fails := func(context.Context, Scenario, Observers) (Result, error) { return Result{}, boom }
	for _, c := range []struct {
		name, json string
		run        runFunc
		differ     []string
		err        error
		rows       int // in the JSON file; -1: none written
	}{
		{"no json", "", bDiffers, []string{b.Name}, nil, -1},
		{"json file", filepath.Join(dir, "s.json"), bDiffers, []string{b.Name}, nil, 2},
		{"json to stdout", "-", bDiffers, []string{b.Name}, nil, -1},
		{"a failure", filepath.Join(dir, "failed.json"), fails, nil, boom, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			differ, err := Request{JSON: c.json}.Run(context.Background(), &stdout, &stderr, list, c.run, nil)
			if !errors.Is(err, c.err) || !slices.Equal(differ, c.differ) {
				t.Fatalf("differ %q, error %v; want %q, %v", differ, err, c.differ, c.err)
			}
			tables, other := &stdout, &stderr
			if c.json == "-" {
				tables, other = &stderr, &stdout
			}
			if c.err == nil && (!strings.Contains(tables.String(), a.Name) || strings.Contains(other.String(), a.Name+" ")) {
				t.Errorf("tables %q, other %q: want the table on one only", tables.String(), other.String())
			}
			if c.json == "-" {
				var sum schema.Summary
				if err := json.Unmarshal([]byte(stdout.String()), &sum); err != nil || len(sum.Runs) != 2 {
					t.Errorf("stdout %q (%v): want the JSON alone", stdout.String(), err)
				}
			}
			if c.json == "" || c.json == "-" {
				return
			}
			raw, err := os.ReadFile(c.json)
			var sum schema.Summary
			switch {
			case c.rows < 0 && err == nil:
				t.Errorf("a JSON written after a failure")
			case c.rows >= 0 && (err != nil || json.Unmarshal(raw, &sum) != nil || len(sum.Runs) != c.rows):
				t.Errorf("JSON %v, %d runs; want %d", err, len(sum.Runs), c.rows)
			}
		})
	}
	_, err := Request{JSON: filepath.Join(dir, "gone", "s.json")}.Run(context.Background(), new(strings.Builder), new(strings.Builder), list, bDiffers, nil)
	var e *output.Error
	if !errors.As(err, &e) || e.Dest != "json" {
		t.Errorf("unwritable JSON: %v, want an output error of json", err)
	}
}

// TestTables: one table per call, a blank line between two.
func TestTables(t *testing.T) {
	a, _ := Lookup("minority-down")
	var b strings.Builder
	done := tablesTo(&b)
	out := Result{Scenario: a, Runs: []schema.Run{{Name: "x", Scenario: &schema.ScenarioOutcome{Scenario: a.Name}}}}
	done(Faults, []Result{out})
	if strings.HasPrefix(b.String(), "\n") {
		t.Errorf("first table after a blank line: %q", b.String())
	}
	first := b.Len()
	done(Faults, []Result{out})
	if rest := b.String()[first:]; !strings.HasPrefix(rest, "\n") || strings.TrimPrefix(rest, "\n") != b.String()[:first] {
		t.Errorf("second table %q: want a blank line, then the same table", rest)
	}
}
