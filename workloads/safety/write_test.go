package safety

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/results/output"
)

// TestOutputsCheck: a JSON file or an HTML page that cannot be written is
// refused before the sweep, naming its destination; stdout for the JSON
// and files in an existing directory pass.
func TestOutputsCheck(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		out  Outputs
		dest string // "": no error
	}{
		{"none", Outputs{}, ""},
		{"json on stdout", Outputs{JSON: "-"}, ""},
		{"files", Outputs{JSON: filepath.Join(dir, "s.json"), HTML: filepath.Join(dir, "s.html")}, ""},
		{"json in no directory", Outputs{JSON: filepath.Join(dir, "no", "s.json")}, "json"},
		{"json on stderr", Outputs{JSON: "/dev/stderr"}, "json"},
		{"html in no directory", Outputs{HTML: filepath.Join(dir, "no", "s.html")}, "html"},
	} {
		err := c.out.Check(os.Stderr)
		var e *output.Error
		switch {
		case c.dest == "" && err != nil:
			t.Errorf("%s: %v, want none", c.name, err)
		case c.dest != "" && (!errors.As(err, &e) || e.Dest != c.dest):
			t.Errorf("%s: %v, want an error of %s", c.name, err, c.dest)
		}
	}
}
