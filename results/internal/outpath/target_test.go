package outpath_test

import (
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/lockbench/lockbench/results/internal/outpath"
)

func ls(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheck: what a file or directory output may be, checked alone; the
// checks leave nothing behind.
func TestCheck(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	write(t, file, "")
	must(t, os.Symlink(file, filepath.Join(dir, "to-file")))
	must(t, os.Symlink(filepath.Join(dir, "nothing"), filepath.Join(dir, "dangling")))
	must(t, os.Symlink(dir, filepath.Join(dir, "to-dir")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	must(t, err)
	defer l.Close()
	before := ls(t, dir)
	for _, c := range []struct {
		name  string
		check func(string) error
		path  string
		err   string // "" ok
	}{
		{"new file", outpath.CheckFile, filepath.Join(dir, "new.json"), ""},
		{"existing file", outpath.CheckFile, file, ""},
		{"symlink to a file", outpath.CheckFile, filepath.Join(dir, "to-file"), ""},
		{"fifo", outpath.CheckFile, filepath.Join(dir, "fifo"), ""},
		{"stdout", outpath.CheckFile, "-", ""},
		{"empty", outpath.CheckFile, "", "empty path"},
		{"a directory", outpath.CheckFile, dir, "is a directory"},
		{"symlink to a directory", outpath.CheckFile, filepath.Join(dir, "to-dir"), "is a directory"},
		{"trailing slash", outpath.CheckFile, dir + "/x/", "names a directory"},
		{"missing parent", outpath.CheckFile, filepath.Join(dir, "no", "x.json"), "does not exist"},
		{"parent is a file", outpath.CheckFile, filepath.Join(file, "x.json"), "is not a directory"},
		{"device", outpath.CheckFile, "/dev/null", "is a device"},
		{"socket", outpath.CheckFile, sock, "is a socket"},
		{"dangling symlink", outpath.CheckFile, filepath.Join(dir, "dangling"), "symlink to nothing"},
		{"existing dir", outpath.CheckDir, dir, ""},
		{"symlink to a dir", outpath.CheckDir, filepath.Join(dir, "to-dir"), ""},
		{"new dir", outpath.CheckDir, filepath.Join(dir, "new"), ""},
		{"dir is a file", outpath.CheckDir, file, "not a directory"},
		{"dir is a device", outpath.CheckDir, "/dev/null", "a device"},
		{"dir is stdout", outpath.CheckDir, "-", "- is stdout"},
		{"dir empty", outpath.CheckDir, "", "empty path"},
		{"dir is a dangling symlink", outpath.CheckDir, filepath.Join(dir, "dangling"), "symlink to nothing"},
		{"dir under a missing parent", outpath.CheckDir, filepath.Join(dir, "no", "new"), "parent directory " + filepath.Join(dir, "no") + " does not exist"},
		{"dir under a file", outpath.CheckDir, filepath.Join(file, "new"), "parent " + file + " is not a directory"},
	} {
		err := c.check(c.path)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		}
	}
	if after := ls(t, dir); after != before {
		t.Errorf("checks changed the directory: %s, was %s", after, before)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWriteFileKeepsLinks: a symlink is written through (the link stays a
// link, its target gets the content and keeps its permissions), a new file
// is 0644, a dangling link or a device is refused with nothing written.
func TestWriteFileKeepsLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.json")
	write(t, target, "old")
	must(t, os.Chmod(target, 0o600))
	link := filepath.Join(dir, "link.json")
	must(t, os.Symlink(target, link))
	hop := filepath.Join(dir, "hop.json")
	must(t, os.Symlink(link, hop))
	for _, p := range []string{link, hop} {
		must(t, outpath.WriteFile(p, []byte("new "+p)))
		if st, err := os.Lstat(p); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a symlink: %v %v", p, st.Mode(), err)
		}
		b, err := os.ReadFile(target)
		if err != nil || string(b) != "new "+p {
			t.Fatalf("target holds %q %v", b, err)
		}
		if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
			t.Errorf("target's mode became %v", st.Mode().Perm())
		}
	}
	fifo := filepath.Join(dir, "fifo")
	must(t, syscall.Mkfifo(fifo, 0o644))
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	must(t, outpath.WriteFile(fifo, []byte("through the pipe")))
	if s := <-got; s != "through the pipe" {
		t.Errorf("the FIFO's reader got %q", s)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", err)
	}
	fresh := filepath.Join(dir, "fresh.json")
	must(t, outpath.WriteFile(fresh, []byte("x")))
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
	}
	dangling := filepath.Join(dir, "dangling")
	must(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	before := ls(t, dir)
	for _, p := range []string{dangling, "/dev/null", dir} {
		if err := outpath.WriteFile(p, []byte("x")); err == nil {
			t.Errorf("WriteFile(%s) accepted", p)
		}
	}
	if st, err := os.Lstat(dangling); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("dangling link replaced: %v", err)
	}
	if after := ls(t, dir); after != before {
		t.Errorf("refused writes changed the directory: %s, was %s", after, before)
	}
}

// TestCreateAbort: an aborted file leaves its target as it was and no temp
// file; a committed one replaces it.
func TestCreateAbort(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "cpu.pprof")
	write(t, p, "old")
	f, err := outpath.Create(p)
	must(t, err)
	_, _ = f.WriteString("half")
	f.Abort()
	if b, _ := os.ReadFile(p); string(b) != "old" || ls(t, dir) != "cpu.pprof" {
		t.Fatalf("after abort: %q, dir %s", b, ls(t, dir))
	}
	f, err = outpath.Create(p)
	must(t, err)
	_, _ = f.WriteString("whole")
	must(t, f.Commit())
	if b, _ := os.ReadFile(p); string(b) != "whole" || ls(t, dir) != "cpu.pprof" {
		t.Fatalf("after commit: %q, dir %s", b, ls(t, dir))
	}
}

// TestOutside: an output directory that is an input's directory or lies
// inside it (also through a symlink) is refused; a sibling is not.
func TestOutside(t *testing.T) {
	root := t.TempDir()
	in := filepath.Join(root, "in")
	must(t, os.Mkdir(in, 0o755))
	link := filepath.Join(root, "link")
	must(t, os.Symlink(in, link))
	for _, c := range []struct {
		out  string
		want string // "" accepted
	}{
		{in, "is the directory of input"},
		{filepath.Join(in, "sub", "new"), "is inside the directory"},
		{filepath.Join(link, "new"), "is inside the directory"},
		{link, "is the directory of input"},
		{filepath.Join(root, "out"), ""},
		{filepath.Join(root, "in2"), ""},
	} {
		err := outpath.Outside(c.out, in)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Outside(%s): %v, want %q", c.out, err, c.want)
		}
	}
}
