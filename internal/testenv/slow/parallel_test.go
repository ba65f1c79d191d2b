package slow

import (
	"flag"
	"testing"
)

func TestWaitingTests(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		n     int
		procs int
		want  int
	}{
		{"raised", nil, 4, 2, 4},
		{"explicit -parallel wins", []string{"-test.parallel", "1"}, 4, 2, 1},
		{"explicit equal to the default wins", []string{"-test.parallel", "2"}, 4, 2, 2},
		{"never below the default", nil, 1, 2, 2},
		{"default already enough", nil, 4, 8, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			p := fs.Int(parallelFlag, tc.procs, "")
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			waitingTests(fs, tc.n, tc.procs)
			if *p != tc.want {
				t.Errorf("-test.parallel %d, want %d", *p, tc.want)
			}
		})
	}
	// A flag set without -test.parallel (not a test binary) is left alone.
	waitingTests(flag.NewFlagSet("other", flag.ContinueOnError), 4, 2)
}
