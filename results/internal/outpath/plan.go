package outpath

import (
	"os"
	"path/filepath"
)

// Path is one path a command names: where it writes (Dest "json", "out",
// ...) or what it reads.
type Path struct {
	Dest, Path string
}

// Plan is every path of one call: checked together, before anything
// starts, so that no output destroys an input or another output.
type Plan struct {
	// Inputs are files read whole (a password or certificate file, a
	// summary file: with the .hlog files beside it when Results).
	Inputs []Path
	// InputDirs are run directories read (summary.json, sweep.json and
	// .hlog files in them).
	InputDirs []Path
	// Files are the files written; "-" is stdout and is not checked here.
	Files []Path
	// Dirs are the output directories (result files, manifest and lock).
	Dirs []Path
	// ResultInputs: the Inputs are summary files, read with the .hlog files
	// beside them.
	ResultInputs bool
	// Stdout and Stderr are the process's when they are files; no file
	// output may be one of them (they carry the table, the progress line,
	// warnings).
	Stdout, Stderr *os.File
}

// Check refuses, as an *Error of the output's Dest: any output whose files
// another path of the call also names (a *ConflictError: an input, another
// output, stdout), then a directory output that cannot be written
// (CheckDir) and a file output that cannot (CheckFile).
func (p Plan) Check() error {
	for _, f := range p.Files { // what a file cannot be at all, before whom it collides with
		if f.Path != "-" {
			if _, _, err := target(f.Path); err != nil {
				return &Error{f.Dest, f.Path, err}
			}
		}
	}
	var outs []area // directories first: a file is refused for what a directory holds
	for _, d := range p.Dirs {
		outs = append(outs, dirArea(d, nil))
	}
	for _, f := range p.Files {
		if f.Path != "-" {
			outs = append(outs, fileArea(f))
		}
	}
	var ins []area
	for _, in := range p.Inputs {
		ins = append(ins, fileArea(in))
		if p.ResultInputs {
			dir := resolved(filepath.Dir(in.Path))
			ins = append(ins, area{Path: in, self: dir, dir: dir, names: []string{"*.hlog"}})
			ins = append(ins, existing(in, filepath.Dir(in.Path), "*.hlog")...)
		}
	}
	read := []string{"summary.json", "config.json", "sweep.json", "*.hlog"}
	for _, in := range p.InputDirs {
		ins = append(ins, dirArea(in, read))
		ins = append(ins, existing(in, in.Path, read...)...)
	}
	var streams []os.FileInfo
	for _, f := range []*os.File{p.Stdout, p.Stderr} {
		if f != nil {
			if st, err := f.Stat(); err == nil {
				streams = append(streams, st)
			}
		}
	}
	for i, o := range outs {
		for _, st := range streams {
			if o.info != nil && os.SameFile(o.info, st) {
				return &Error{o.Dest, o.Path.Path, &ConflictError{Stdout: true}}
			}
		}
		for _, in := range ins {
			if o.overlaps(in) {
				return &Error{o.Dest, o.Path.Path, &ConflictError{Dest: in.Dest, Path: in.Path.Path, Input: true}}
			}
		}
		for _, other := range outs[:i] {
			if o.overlaps(other) {
				return &Error{o.Dest, o.Path.Path, &ConflictError{Dest: other.Dest, Path: other.Path.Path}}
			}
		}
	}
	for _, d := range p.Dirs {
		if err := CheckDir(d.Path); err != nil {
			return &Error{d.Dest, d.Path, err}
		}
	}
	for _, f := range p.Files {
		if err := CheckFile(f.Path); err != nil {
			return &Error{f.Dest, f.Path, err}
		}
	}
	return nil
}

// area is the files one path stands for: names (or patterns) in a
// directory, compared with symlinks resolved, and the file itself when it
// exists (hard links are one file).
type area struct {
	Path
	self  string // the path itself, resolved
	dir   string
	names []string
	info  os.FileInfo
}

func fileArea(p Path) area {
	r := resolved(p.Path)
	a := area{Path: p, self: r, dir: filepath.Dir(r), names: []string{filepath.Base(r)}}
	if st, err := os.Stat(p.Path); err == nil {
		a.info = st
	}
	return a
}

// existing are the files of dir matching patterns, each an area of in
// (so that a hard link to one of them is it).
func existing(in Path, dir string, patterns ...string) []area {
	var out []area
	for _, pat := range patterns {
		names, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, n := range names {
			a := fileArea(Path{Dest: in.Dest, Path: n})
			a.Path = in
			out = append(out, a)
		}
	}
	return out
}

// dirArea is a directory's files of names; nil: every name a result,
// its manifest or its lock can have.
func dirArea(p Path, names []string) area {
	if names == nil {
		names = []string{"summary.json", "config.json", "sweep.json", "*.hlog", ManifestName, LockName}
	}
	r := resolved(p.Path)
	return area{Path: p, self: r, dir: r, names: names}
}

func (a area) overlaps(b area) bool {
	if a.info != nil && b.info != nil && os.SameFile(a.info, b.info) {
		return true
	}
	if a.self == b.self {
		return true
	}
	if a.dir != b.dir {
		return false
	}
	for _, x := range a.names {
		for _, y := range b.names {
			if x == y || match(x, y) || match(y, x) {
				return true
			}
		}
	}
	return false
}

func match(pattern, name string) bool {
	ok, _ := filepath.Match(pattern, name)
	return ok
}

// resolved is p made absolute and clean, with the symlinks of its existing
// part resolved (the rest, not yet made, kept as written).
func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	var rest []string
	for cur := abs; ; cur = filepath.Dir(cur) {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		if parent := filepath.Dir(cur); parent == cur {
			return abs
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
	}
}
