package outpath_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lockbench/lockbench/results/internal/outpath"
)

func result(names ...string) []outpath.NamedFile {
	var fs []outpath.NamedFile
	for _, n := range names {
		fs = append(fs, outpath.NamedFile{Name: n, Data: []byte("data of " + n)})
	}
	return fs
}

// claimWrite claims dir, writes files and releases it.
func claimWrite(t *testing.T, dir string, names ...string) {
	t.Helper()
	d, err := outpath.Claim(dir)
	must(t, err)
	defer d.Release()
	must(t, d.Replace(result(names...)))
}

// TestClaimRefusesForeignFiles: a directory holding a file a result could
// be written over, that lockbench did not write there (or that changed
// since), is refused, and nothing in it changes.
func TestClaimRefusesForeignFiles(t *testing.T) {
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T, dir string)
		foreign string
	}{
		{"foreign summary.json", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "summary.json"), "{}") }, "summary.json"},
		{"foreign hlog", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "other.cycle.hlog"), "x") }, "other.cycle.hlog"},
		{"foreign sweep.json", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "sweep.json"), "[]") }, "sweep.json"},
		{"own file edited since", func(t *testing.T, dir string) {
			claimWrite(t, dir, "a.cycle.hlog", "summary.json")
			write(t, filepath.Join(dir, "summary.json"), "edited")
		}, "summary.json"},
		{"own file replaced by a link", func(t *testing.T, dir string) {
			claimWrite(t, dir, "summary.json")
			target := filepath.Join(t.TempDir(), "elsewhere")
			write(t, target, "data of summary.json")
			must(t, os.Remove(filepath.Join(dir, "summary.json")))
			must(t, os.Symlink(target, filepath.Join(dir, "summary.json")))
		}, "summary.json"},
		{"foreign manifest", func(t *testing.T, dir string) { write(t, filepath.Join(dir, outpath.ManifestName), "not json") }, outpath.ManifestName},
		{"manifest naming a path outside", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, outpath.ManifestName), `{"schema":"lockbench/manifest/v1","files":{"../x":["00"]}}`)
		}, outpath.ManifestName},
		{"lock file is a link", func(t *testing.T, dir string) {
			must(t, os.Symlink(filepath.Join(t.TempDir(), "victim"), filepath.Join(dir, outpath.LockName)))
		}, outpath.LockName},
		{"a directory named summary.json", func(t *testing.T, dir string) { must(t, os.Mkdir(filepath.Join(dir, "summary.json"), 0o755)) }, "summary.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.prepare(t, dir)
			before := snapshot(t, dir)
			d, err := outpath.Claim(dir)
			var fe *outpath.ForeignError
			if !errors.As(err, &fe) || fe.Name != c.foreign {
				if d != nil {
					d.Release()
				}
				t.Fatalf("Claim: %v, want a ForeignError naming %s", err, c.foreign)
			}
			if after := snapshot(t, dir); after != before {
				t.Fatalf("refused claim changed the directory:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// snapshot is every entry of dir with its content (or link target) but
// the lock file, whose pid line is the claim's.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	must(t, err)
	s := ""
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		s += e.Name() + "="
		if to, err := os.Readlink(p); err == nil {
			s += "->" + to
		} else if b, err := os.ReadFile(p); err == nil && e.Name() != outpath.LockName {
			s += string(b)
		}
		s += "\n"
	}
	return s
}

// TestReplaceOwnsOnlyWhatItWrote: a new result replaces the files of the
// earlier one lockbench wrote (stale ones removed), and leaves every other
// file alone.
func TestReplaceOwnsOnlyWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	claimWrite(t, dir, "old.cycle.hlog", "sweep.json", "summary.json")
	write(t, filepath.Join(dir, "notes.txt"), "mine")
	write(t, filepath.Join(dir, ".summary.json.123"), "mine too")
	d, err := outpath.Claim(dir)
	must(t, err)
	if !d.Earlier() {
		t.Error("Earlier: false, want true (summary.json was written by lockbench)")
	}
	must(t, d.Replace(result("new.cycle.hlog", "summary.json")))
	d.Release()
	want := ".lockbench-manifest.json .lockbench.lock .summary.json.123 new.cycle.hlog notes.txt summary.json"
	if got := ls(t, dir); got != want {
		t.Errorf("dir holds %s, want %s", got, want)
	}
	// The new result is lockbench's own: claimed again without a word.
	claimWrite(t, dir, "summary.json")
}

// TestReplaceRefusesForeignName: a file that appeared after the claim is
// not overwritten; nothing of the result is written.
func TestReplaceRefusesForeignName(t *testing.T) {
	dir := t.TempDir()
	d, err := outpath.Claim(dir)
	must(t, err)
	defer d.Release()
	write(t, filepath.Join(dir, "config.json"), "theirs")
	err = d.Replace(result("a.cycle.hlog", "summary.json", "config.json"))
	if fe := new(outpath.ForeignError); !errors.As(err, &fe) || fe.Name != "config.json" {
		t.Fatalf("Replace: %v, want a ForeignError naming config.json", err)
	}
	if got := ls(t, dir); got != ".lockbench.lock config.json" {
		t.Errorf("dir holds %s", got)
	}
	for _, bad := range []string{"../x", "sub/x", outpath.ManifestName, outpath.LockName, ""} {
		if err := d.Replace(result(bad)); err == nil {
			t.Errorf("Replace(%q) accepted", bad)
		}
	}
}

// TestClaimHeld: a directory claimed by a live writer is refused to a
// second one (naming the holder's pid), and free again once released. A
// directory Claim made that got no result is removed on release.
func TestClaimHeld(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	a, err := outpath.Claim(dir)
	must(t, err)
	_, err = outpath.Claim(dir)
	var he *outpath.HeldError
	if !errors.As(err, &he) || he.PID != itoa(os.Getpid()) {
		t.Fatalf("second claim: %v, want a HeldError naming pid %d", err, os.Getpid())
	}
	a.Release()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an unused directory Claim made is still there: %v", err)
	}
	b, err := outpath.Claim(dir)
	must(t, err)
	must(t, b.Replace(result("summary.json")))
	b.Release()
	c, err := outpath.Claim(dir)
	must(t, err)
	c.Release()
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Fatalf("a directory with a result was removed: %v", err)
	}
}

func itoa(n int) string { return fmtInt(n) }
