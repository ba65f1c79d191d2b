package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/schema"
)

// refused runs lockbench and checks a refusal: exit 2 and one line on
// stderr naming want.
func refused(t *testing.T, want string, args ...string) {
	t.Helper()
	stdout, stderr, code := cli(t, 60*time.Second, args...)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != exit.Usage || len(lines) != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q: want exit %d and one line naming %q\nstdout: %s", code, stderr, exit.Usage, want, stdout)
	}
}

// writeVariant writes the summary at src with edit applied to dst.
func writeVariant(t *testing.T, src, dst string, edit func(s *schema.Summary)) string {
	t.Helper()
	s, err := schema.ReadSummary(src)
	if err != nil {
		t.Fatal(err)
	}
	edit(s)
	if err := s.WriteJSON(dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestSweepRefusesUnmeasuredOp: a sweep held to the p99 of an op no step
// measures would pass every step (p99 0); it is refused before any server
// starts.
func TestSweepRefusesUnmeasuredOp(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--op", "extend", "--slo", "1us"}, "--op extend"},
		{[]string{"sweep", "--op", "bogus"}, `--op "bogus"`},
	} {
		t.Run(strings.Join(tt.args[1:], " "), func(t *testing.T) { refused(t, tt.want, tt.args...) })
	}
}

// TestMergeIsSafe: merge never writes into an input, never counts a run
// twice, and reads exactly the summary file it is given.
func TestMergeIsSafe(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	a, b, _ := concurrentRuns(t)
	tmp := filepath.Dir(a)
	copyOfA := filepath.Join(tmp, "copy-of-a")
	copyDir(t, a, copyOfA)
	linkToB := filepath.Join(tmp, "link-to-b")
	if err := os.Symlink(b, linkToB); err != nil {
		t.Fatal(err)
	}
	// X.json beside a's logs is another summary than a's summary.json.
	x := writeVariant(t, filepath.Join(a, "summary.json"), filepath.Join(a, "x.json"), func(s *schema.Summary) {
		s.Started = s.Started.Add(time.Nanosecond) // another run's identity
		s.Runs[0].Workers = 99
	})
	before := snapshot(t, a, b)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"out is an input", []string{"merge", a, b, "-o", b}, "--out"},
		{"out inside an input", []string{"merge", a, b, "-o", filepath.Join(a, "merged")}, "--out"},
		{"out is an input through a symlink", []string{"merge", a, b, "-o", linkToB}, "--out"},
		{"out is the dir of an input file", []string{"merge", filepath.Join(a, "summary.json"), b, "-o", a}, "--out"},
		{"the same run twice", []string{"merge", a, a, "-o", filepath.Join(tmp, "m1")}, "same run twice"},
		{"the same run as dir and file", []string{"merge", a, filepath.Join(a, "summary.json"), "-o", filepath.Join(tmp, "m2")}, "same run twice"},
		{"a copy of a run", []string{"merge", a, copyOfA, "-o", filepath.Join(tmp, "m3")}, "same run twice"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			refused(t, tt.want, tt.args...)
			if after := snapshot(t, a, b); after != before {
				t.Fatal("a refused merge changed an input")
			}
			for _, m := range []string{"m1", "m2", "m3"} {
				if _, err := os.Stat(filepath.Join(tmp, m)); !os.IsNotExist(err) {
					t.Fatalf("a refused merge wrote %s", m)
				}
			}
		})
	}

	m := filepath.Join(tmp, "m")
	if _, stderr, code := cli(t, 60*time.Second, "merge", "-q", x, b, "-o", m); code != exit.OK {
		t.Fatalf("merge x.json b: exit %d: %s", code, stderr)
	}
	sb, _ := schema.ReadSummary(filepath.Join(b, "summary.json"))
	sm, err := schema.ReadSummary(filepath.Join(m, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sm.Runs[0].Workers, 99+sb.Runs[0].Workers; got != want {
		t.Fatalf("merged workers %d, want %d: x.json was not the summary read", got, want)
	}
	// The merged result holds b: merging them again would count b twice.
	refused(t, "same run twice", "merge", m, b, "-o", filepath.Join(tmp, "m4"))
}

// snapshot is the content of every file under dirs, to tell whether they changed.
func snapshot(t *testing.T, dirs ...string) string {
	t.Helper()
	var buf bytes.Buffer
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			buf.WriteString(p + "\n")
			buf.Write(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}
