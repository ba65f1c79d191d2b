package output_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/results/output"
)

// TestCPUProfile: no path profiles nothing; a path gets a profile once
// stopped; a path that cannot be created, or a second profile while one
// runs, is an error of Dest "cpuprofile" naming the path.
func TestCPUProfile(t *testing.T) {
	stop, err := output.CPUProfile("")
	if err != nil {
		t.Fatal(err)
	}
	stop()
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	stop, err = output.CPUProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(dir, "second.prof")
	for _, bad := range []string{filepath.Join(dir, "none", "cpu.prof"), second} {
		_, err := output.CPUProfile(bad)
		var e *output.Error
		if !errors.As(err, &e) || e.Dest != "cpuprofile" || e.Path != bad {
			t.Errorf("%s: error %v, want one of dest cpuprofile naming it", bad, err)
		}
	}
	stop()
	if st, err := os.Stat(path); err != nil || st.Size() == 0 {
		t.Fatalf("profile %v, error %v: want a non-empty file", st, err)
	}
}
