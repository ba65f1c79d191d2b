package output_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/output"
)

// TestWriterCheck: a Writer whose JSON file or Out directory cannot be
// written, or is the command's stderr, is refused before anything is
// measured, naming which.
func TestWriterCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	for _, tc := range []struct {
		name string
		w    output.Writer
		dest string // "" for none
	}{
		{"nothing", output.Writer{}, ""},
		{"both fine", output.Writer{JSON: filepath.Join(dir, "s.json"), Out: filepath.Join(dir, "out")}, ""},
		{"stdout", output.Writer{JSON: "-"}, ""},
		{"json is a directory", output.Writer{JSON: dir}, "json"},
		{"out is a file", output.Writer{JSON: "-", Out: file}, "out"},
		{"json is stderr", output.Writer{JSON: stderr.Name(), Stderr: stderr}, "json"},
		{"stderr not a file", output.Writer{JSON: file, Stderr: new(strings.Builder)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.w.Check()
			var e *output.Error
			switch {
			case tc.dest == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.dest != "" && (!errors.As(err, &e) || e.Dest != tc.dest):
				t.Fatalf("err %v, want an *Error of %s", err, tc.dest)
			}
		})
	}
}
