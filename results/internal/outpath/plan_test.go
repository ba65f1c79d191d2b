package outpath_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lockbench/lockbench/results/internal/outpath"
)

// TestPlanConflicts: an output is refused when an input of the call, another
// output of it, or stdout is the same file, compared with symlinks resolved,
// hard links as one file, and the files an output or input directory holds.
func TestPlanConflicts(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	must(t, os.Mkdir(run, 0o755))
	write(t, filepath.Join(run, "summary.json"), "{}")
	key := filepath.Join(dir, "key.pem")
	write(t, key, "k")
	must(t, os.Symlink(key, filepath.Join(dir, "key-link")))
	must(t, os.Link(key, filepath.Join(dir, "key-hard")))
	must(t, os.Symlink(run, filepath.Join(dir, "run-link")))
	must(t, os.Link(filepath.Join(run, "summary.json"), filepath.Join(dir, "summary-hard")))
	stdout, err := os.Create(filepath.Join(dir, "stdout.txt"))
	must(t, err)
	defer stdout.Close()
	must(t, os.Symlink(stdout.Name(), filepath.Join(dir, "stdout-link")))
	in := func(p string) outpath.Path { return outpath.Path{Dest: "tls-key", Path: p} }
	js := func(p string) outpath.Path { return outpath.Path{Dest: "json", Path: p} }
	prof := func(p string) outpath.Path { return outpath.Path{Dest: "cpuprofile", Path: p} }
	out := func(p string) outpath.Path { return outpath.Path{Dest: "out", Path: p} }
	runIn := []outpath.Path{{Dest: "input", Path: run}}
	for _, c := range []struct {
		name     string
		plan     outpath.Plan
		dest     string // "" accepted
		conflict string // the other's Dest
	}{
		{"json is cpuprofile", outpath.Plan{Files: []outpath.Path{js(filepath.Join(dir, "x")), prof(filepath.Join(dir, "x"))}}, "cpuprofile", "json"},
		{"json is cpuprofile, unclean", outpath.Plan{Files: []outpath.Path{js(filepath.Join(dir, "x")), prof(dir + "/run/../x")}}, "cpuprofile", "json"},
		{"json inside out", outpath.Plan{Files: []outpath.Path{js(filepath.Join(dir, "d", "config.json"))}, Dirs: []outpath.Path{out(filepath.Join(dir, "d"))}}, "json", "out"},
		{"json an hlog of out", outpath.Plan{Files: []outpath.Path{js(filepath.Join(run, "a.cycle.hlog"))}, Dirs: []outpath.Path{out(run)}}, "json", "out"},
		{"json is out itself", outpath.Plan{Files: []outpath.Path{js(filepath.Join(dir, "new"))}, Dirs: []outpath.Path{out(filepath.Join(dir, "new"))}}, "json", "out"},
		{"json beside out's files", outpath.Plan{Files: []outpath.Path{js(filepath.Join(run, "mine.json"))}, Dirs: []outpath.Path{out(run)}}, "", ""},
		{"json is an input", outpath.Plan{Inputs: []outpath.Path{in(key)}, Files: []outpath.Path{js(key)}}, "json", "tls-key"},
		{"json links to an input", outpath.Plan{Inputs: []outpath.Path{in(key)}, Files: []outpath.Path{js(filepath.Join(dir, "key-link"))}}, "json", "tls-key"},
		{"json is a hard link of an input", outpath.Plan{Inputs: []outpath.Path{in(key)}, Files: []outpath.Path{js(filepath.Join(dir, "key-hard"))}}, "json", "tls-key"},
		{"report over the input's summary", outpath.Plan{InputDirs: runIn, Files: []outpath.Path{out(filepath.Join(run, "summary.json"))}}, "out", "input"},
		{"report over the input's summary by a linked dir", outpath.Plan{InputDirs: runIn, Files: []outpath.Path{out(filepath.Join(dir, "run-link", "summary.json"))}}, "out", "input"},
		{"report over a summary file's hlog", outpath.Plan{ResultInputs: true, Inputs: []outpath.Path{{Dest: "input", Path: filepath.Join(run, "summary.json")}},
			Files: []outpath.Path{out(filepath.Join(run, "x.cycle.hlog"))}}, "out", "input"},
		{"report over a hard link of the input's summary", outpath.Plan{InputDirs: runIn, Files: []outpath.Path{out(filepath.Join(dir, "summary-hard"))}}, "out", "input"},
		{"report beside the input", outpath.Plan{InputDirs: runIn, Files: []outpath.Path{out(filepath.Join(run, "report.html"))}}, "", ""},
		{"out is an input dir", outpath.Plan{InputDirs: runIn, Dirs: []outpath.Path{out(run)}}, "out", "input"},
		{"json is stdout", outpath.Plan{Stdout: stdout, Files: []outpath.Path{js(stdout.Name())}}, "json", ""},
		{"json links to stdout", outpath.Plan{Stdout: stdout, Files: []outpath.Path{js(filepath.Join(dir, "stdout-link"))}}, "json", ""},
		{"json is stderr", outpath.Plan{Stderr: stdout, Files: []outpath.Path{js(stdout.Name())}}, "json", ""},
		{"json - with stdout a file", outpath.Plan{Stdout: stdout, Files: []outpath.Path{js("-")}}, "", ""},
		{"distinct", outpath.Plan{Inputs: []outpath.Path{in(key)}, Files: []outpath.Path{js(filepath.Join(dir, "s.json")), prof(filepath.Join(dir, "p"))},
			Dirs: []outpath.Path{out(filepath.Join(dir, "d"))}, Stdout: stdout}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.plan.Check()
			if c.dest == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *outpath.Error
			var ce *outpath.ConflictError
			switch {
			case !errors.As(err, &e) || e.Dest != c.dest:
				t.Fatalf("err %v, want an *Error of %s", err, c.dest)
			case !errors.As(err, &ce):
				t.Fatalf("err %v, want a conflict", err)
			case ce.Dest != c.conflict:
				t.Fatalf("conflict with %q, want %q (%v)", ce.Dest, c.conflict, err)
			}
		})
	}
}

func fmtInt(n int) string { return strconv.Itoa(n) }
