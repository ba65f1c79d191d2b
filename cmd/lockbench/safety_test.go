package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/workloads/safety"
)

// Bad input is one line naming the flag, exit 2, before anything starts.
func TestSafetyBadInput(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"safety", "--ratios", "0.5,0"}, "--ratios 0"},
		{[]string{"safety", "--ratios", "x"}, "--ratios"},
		{[]string{"safety", "--fault", "clock-jump", "--backends", "zookeeper"}, `--backends "zookeeper"`},
		{[]string{"safety", "--fencing", "maybe"}, "--fencing"},
		{[]string{"safety", "--backends", "etcd", "--ttl", "500ms"}, "--ttl"},
		{[]string{"safety", "--json", filepath.Join(t.TempDir(), "no", "such", "dir", "s.json")}, "--json"},
		{[]string{"safety", "--html", filepath.Join(t.TempDir(), "no", "such", "dir", "s.html")}, "--html"},
	} {
		stdout, stderr, code := runIn(ctx, c.args...)
		if code != exit.Usage || !strings.Contains(stderr, c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q: want exit 2 naming %q", c.args, code, stderr, stdout, c.want)
		}
	}
}

// The flags reach the library's config, the points come back as the table
// and as JSON with the keys the issue names.
func TestSafetyTableAndJSON(t *testing.T) {
	saved := runSafety
	defer func() { runSafety = saved }()
	var got safety.Config
	runSafety = func(_ context.Context, c safety.Config, _ io.Writer) (safety.Result, error) {
		got = c
		return safety.Result{Config: c, Points: []safety.Point{
			{Backend: "redlock", Fault: "pause", Ratio: 2, Fencing: safety.FencingOff, Grants: 200, Violations: 180,
				PerMillion: 900000, PerMillionLo: 770000, PerMillionHi: 1040000, WriteCounts: safety.WriteCounts{StaleAccepted: 180}},
			{Backend: "etcd", Fault: "pause", Ratio: 0.5, Fencing: safety.FencingOn, Grants: 200, PerMillionHi: 15000},
		}}, nil
	}
	file, page := filepath.Join(t.TempDir(), "safety.json"), filepath.Join(t.TempDir(), "safety.html")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stdout, stderr, code := runIn(ctx, "safety", "--backends", "redlock,etcd", "--ratios", "0.5,2", "--fencing", "both", "--grants", "200", "--json", file, "--html", page)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(got.Backends) != 2 || len(got.Ratios) != 2 || got.Ratios[1] != 2 || got.Fencing != safety.FencingBoth || got.Grants != 200 {
		t.Errorf("config %+v", got)
	}
	for _, want := range []string{"redlock", "900000", "[0, 15000]"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, stdout)
		}
	}
	if h, err := os.ReadFile(page); err != nil || !strings.Contains(string(h), "<svg") {
		t.Errorf("--html: %v, %.80q", err, h)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var res struct{ Points []map[string]any }
	if err := json.Unmarshal(b, &res); err != nil || len(res.Points) != 2 {
		t.Fatalf("JSON %v: %s", err, b)
	}
	for _, key := range []string{"backend", "fault", "ratio", "fencing", "grants", "violations", "per_million", "per_million_lo",
		"per_million_hi", "stale_writes_accepted"} {
		if _, ok := res.Points[0][key]; !ok {
			t.Errorf("point without %q: %v", key, res.Points[0])
		}
	}
}
