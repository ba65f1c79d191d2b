package output_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/output"
)

// TestWriteReport: the page goes to stdout for "-" or into the file; an
// input that does not read is an error of Dest "report", a file that
// cannot be written one of Dest "out".
func TestWriteReport(t *testing.T) {
	dir, run, _ := inputs(t)
	var b bytes.Buffer
	if err := output.WriteReport(&b, "-", "T", time.Now(), []string{run}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "<html") || !strings.Contains(b.String(), "T") {
		t.Errorf("stdout %.80q…: want the HTML page", b.String())
	}
	page := filepath.Join(dir, "r.html")
	b.Reset()
	if err := output.WriteReport(&b, page, "", time.Now(), []string{run}); err != nil || b.Len() != 0 {
		t.Fatalf("error %v, stdout %d bytes", err, b.Len())
	}
	if raw, err := os.ReadFile(page); err != nil || !strings.Contains(string(raw), "lockbench report") {
		t.Fatalf("page: %v", err)
	}
	for _, c := range []struct {
		name, out, input, dest string
	}{
		{"missing input", page, filepath.Join(dir, "none"), "report"},
		{"unwritable out", filepath.Join(dir, "no", "r.html"), run, "out"},
	} {
		err := output.WriteReport(&b, c.out, "", time.Now(), []string{c.input})
		var e *output.Error
		if !errors.As(err, &e) || e.Dest != c.dest {
			t.Errorf("%s: error %v, want one of dest %s", c.name, err, c.dest)
		}
	}
}
