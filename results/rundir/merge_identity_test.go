package rundir_test

import (
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/internal/fixture"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
)

// TestMergeRefusesTheSameRunTwice: identity is start time, host and name,
// not the path; a merged result carries the identities it was made from.
func TestMergeRefusesTheSameRunTwice(t *testing.T) {
	name := "redlock/goredis/fanout/uncontended"
	input := func(path string, started time.Time, host string) *rundir.RunDir {
		r, l := fixture.Run(t, name, 1, 2)
		s := fixture.Summary(r)
		s.Started, s.Host.Hostname = started, host
		return &rundir.RunDir{Dir: path, Path: path + "/summary.json", Summary: s, Logs: map[string]record.RunLogs{name: l}}
	}
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	a, b := input("a", t0, "box"), input("b", t0.Add(time.Millisecond), "box")
	merged, mlogs, err := rundir.Merge([]*rundir.RunDir{a, b}, true)
	if err != nil {
		t.Fatal(err)
	}
	m := &rundir.RunDir{Dir: "m", Path: "m/summary.json", Summary: merged, Logs: mlogs}
	tests := []struct {
		name   string
		inputs []*rundir.RunDir
		dup    bool
	}{
		{"two processes, same second, same host", []*rundir.RunDir{a, b}, false},
		{"same start, other host", []*rundir.RunDir{a, input("c", t0, "other")}, false},
		{"the same dir twice", []*rundir.RunDir{a, a}, true},
		{"a copy of a dir", []*rundir.RunDir{a, input("copy-of-a", t0, "box")}, true},
		{"a merged result with one of its inputs", []*rundir.RunDir{m, b}, true},
		{"a merged result with a new run", []*rundir.RunDir{m, input("d", t0.Add(time.Second), "box")}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := rundir.Merge(tt.inputs, true)
			if got := errors.Is(err, rundir.ErrDuplicateRun); got != tt.dup {
				t.Fatalf("duplicate refused=%v (%v), want %v", got, err, tt.dup)
			}
		})
	}
}
