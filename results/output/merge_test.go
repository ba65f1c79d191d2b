package output_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/rundir"
	"github.com/lockbench/lockbench/results/schema"
)

// TestMergeRequestValidate: the checks before anything is read, in order.
func TestMergeRequestValidate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		req  output.MergeRequest
		want string // "" for a pass
	}{
		{"no inputs", output.MergeRequest{Out: dir}, "merge: want at least two run directories, got 0"},
		{"one input, no out", output.MergeRequest{Inputs: []string{"a"}}, "merge: want at least two run directories, got 1"},
		{"no out", output.MergeRequest{Inputs: []string{"a", "b"}}, output.ErrNoOut.Error()},
		{"out a file", output.MergeRequest{Inputs: []string{"a", "b"}, Out: file}, `out "` + file + `": not a directory`},
		{"new out", output.MergeRequest{Inputs: []string{"a", "b"}, Out: filepath.Join(dir, "new")}, ""},
	} {
		err := c.req.Validate()
		if (c.want == "") != (err == nil) || (err != nil && err.Error() != c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if err := (output.MergeRequest{Inputs: []string{"a", "b"}}).Validate(); !errors.Is(err, output.ErrNoOut) {
		t.Errorf("no out: %v, want ErrNoOut", err)
	}
}

// mergeable writes a run directory of one run measured from started.
func mergeable(t *testing.T, dir string, started time.Time, workers int) {
	t.Helper()
	sum, err := schema.NewSummary(started, map[string]any{"workload": "uncontended"})
	if err != nil {
		t.Fatal(err)
	}
	sum.Runs = []schema.Run{{Name: "a", Backend: "redlock", Workers: workers, DurationS: 10,
		Counts: schema.Counts{Cycles: 10, Attempts: 10, Acquired: 10}}}
	h := record.NewHistogram()
	if err := h.RecordValue(1000); err != nil {
		t.Fatal(err)
	}
	h.SetStartTimeMs(started.UnixMilli())
	h.SetEndTimeMs(started.Add(10 * time.Second).UnixMilli())
	logs := map[string]output.Logs{"a": output.MergedLogs{"cycle": {h}}}
	if err := (output.Writer{Out: dir, NoTable: true}).Write(sum, logs); err != nil {
		t.Fatal(err)
	}
}

// TestMergeRequestMerge: the inputs' faults are ErrBadInput (and keep
// naming what they name); a merge that is allowed writes Out.
func TestMergeRequestMerge(t *testing.T) {
	dir := t.TempDir()
	a, b, out := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "out")
	now := time.Now()
	mergeable(t, a, now, 2)
	mergeable(t, b, now.Add(time.Second), 3)
	for _, c := range []struct {
		name string
		req  output.MergeRequest
		dest string // an *output.Error's, or "" for none
		is   error
	}{
		{"missing input", output.MergeRequest{Inputs: []string{a, filepath.Join(dir, "none")}, Out: out}, "merge", nil},
		{"out inside an input", output.MergeRequest{Inputs: []string{a, b}, Out: filepath.Join(a, "sub")}, "out", nil},
		{"the same run twice", output.MergeRequest{Inputs: []string{a, a}, Out: out}, "", rundir.ErrDuplicateRun},
	} {
		_, err := c.req.Merge()
		var e *output.Error
		switch {
		case !errors.Is(err, output.ErrBadInput):
			t.Errorf("%s: error %v, want ErrBadInput", c.name, err)
		case c.dest != "" && (!errors.As(err, &e) || e.Dest != c.dest):
			t.Errorf("%s: error %v, want one of dest %s", c.name, err, c.dest)
		case c.is != nil && (!errors.Is(err, c.is) || !strings.HasPrefix(err.Error(), "merge: ")):
			t.Errorf("%s: error %v, want merge: %v", c.name, err, c.is)
		}
	}
	sum, err := output.MergeRequest{Inputs: []string{a, b}, Out: out}.Merge()
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Runs) != 1 || sum.Runs[0].Workers != 5 {
		t.Fatalf("merged runs %+v: want one of 5 workers", sum.Runs)
	}
	if _, err := rundir.ReadRunDir(out); err != nil {
		t.Fatal(err)
	}
}

// flagsOf are the flags of the tagged fields of v's struct type.
func flagsOf(v any) map[string]bool {
	flags := map[string]bool{}
	t := reflect.TypeOf(v)
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("flag"), ","); name != "" {
			flags["--"+name] = true
		}
	}
	return flags
}

// TestHelpNamesFlags: every flag a help text names is one of its
// command's (merge's inputs are --out directories of run: Options').
func TestHelpNamesFlags(t *testing.T) {
	for name, c := range map[string]struct {
		help  string
		flags map[string]bool
	}{
		"MergeHelp":  {output.MergeHelp, flagsOf(output.MergeRequest{})},
		"ReportHelp": {output.ReportHelp, flagsOf(output.Options{})},
	} {
		named := regexp.MustCompile(`--[a-z][a-z-]*`).FindAllString(c.help, -1)
		if len(named) == 0 {
			t.Errorf("%s names no flag", name)
		}
		for _, f := range named {
			if !c.flags[f] {
				t.Errorf("%s names %s, not a flag of its command", name, f)
			}
		}
	}
}
