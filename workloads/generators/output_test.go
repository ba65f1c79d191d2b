package generators

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/output"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/compare"
)

// TestShareAt: a share is said to be kept in --out, else in the JSON file;
// a result that goes to stdout alone is nowhere on disk.
func TestShareAt(t *testing.T) {
	for _, tc := range []struct {
		w    output.Writer
		want string
	}{
		{output.Writer{}, ""},
		{output.Writer{JSON: "-"}, ""},
		{output.Writer{JSON: "g1.json"}, "in g1.json"},
		{output.Writer{JSON: "g1.json", Out: "runs/g1"}, "in runs/g1"},
	} {
		if got := shareAt(tc.w); got != tc.want {
			t.Errorf("shareAt(%+v) = %q, want %q", tc.w, got, tc.want)
		}
	}
}

// TestWriteOutput: a share prints no table, and generator 0's share leaves
// stdout's JSON to the merged run; the merged run prints as Output says.
func TestWriteOutput(t *testing.T) {
	sum := &schema.Summary{Runs: []schema.Run{{Name: "redlock/goredis/pipeline/contended"}}}
	for _, tc := range []struct {
		name          string
		index         int
		json          string
		share         bool
		stdout, table bool // something on stdout; the table
		file          bool // the JSON file written
	}{
		{"share of generator 0, JSON on stdout", 0, "-", true, false, false, false},
		{"share of generator 1, JSON on stdout", 1, "-", true, true, false, false},
		{"share to a file", 0, "share.json", true, false, false, true},
		{"merged run", 0, "", false, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout bytes.Buffer
			json := tc.json
			if json != "" && json != "-" {
				json = filepath.Join(t.TempDir(), json)
			}
			r := Run{Generators: Config{Index: tc.index}, Output: output.Writer{Stdout: &stdout, JSON: json}}
			if err := r.writeOutput(sum, nil, tc.share); err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(json)
			if got := stdout.Len() > 0; got != tc.stdout {
				t.Errorf("stdout %q: want output %v", stdout.String(), tc.stdout)
			}
			if got := strings.Contains(stdout.String(), "contended") && !strings.HasPrefix(stdout.String(), "{"); got != tc.table {
				t.Errorf("stdout %q: want the table %v", stdout.String(), tc.table)
			}
			if got := json != "" && json != "-" && statErr == nil; got != tc.file {
				t.Errorf("JSON file %s written %v, want %v", json, got, tc.file)
			}
		})
	}
}

// TestCompareWrite: another generator's share of a compare prints no
// table; generator 0's compare prints the compare's table and answers;
// both write with the writer Output gives for the result's runs.
func TestCompareWrite(t *testing.T) {
	sum := &schema.Summary{Runs: []schema.Run{{Name: "redlock/goredis/pipeline/contended"}}}
	for _, tc := range []struct {
		name  string
		share bool
		table bool
	}{
		{"share", true, false},
		{"compare", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout bytes.Buffer
			json := filepath.Join(t.TempDir(), "c.json")
			var asked []schema.Run
			c := Compare{Output: func(runs []schema.Run) output.Writer {
				asked = runs
				return output.Writer{Stdout: &stdout, JSON: json}
			}}
			if err := c.write(compare.Result{}, sum, tc.share); err != nil {
				t.Fatal(err)
			}
			if len(asked) != 1 {
				t.Errorf("Output given %d runs, want the result's 1", len(asked))
			}
			if _, err := os.Stat(json); err != nil {
				t.Errorf("JSON file: %v", err)
			}
			if got := strings.Contains(stdout.String(), "contended"); got != tc.table {
				t.Errorf("stdout %q: want the table %v", stdout.String(), tc.table)
			}
		})
	}
}
