package outpath

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes b to the file path: atomically (a temp file beside the
// target, renamed into place) when the target is new or a regular file,
// through its symlinks, which stay links; by opening it when it is a FIFO.
// A replaced file keeps its permissions; a new one is 0644 (results are for
// sharing). Whatever fails, no temp file is left.
func WriteFile(path string, b []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a file being written (Create): Commit puts it in place, Abort
// leaves the target as it was (a stream target keeps what was written).
type File struct {
	*os.File
	final string // where a temp file is renamed to; "" for a stream
}

// Create opens the file path for writing as WriteFile writes it: a temp
// file beside the target, renamed onto it by Commit; or the FIFO itself.
func Create(path string) (*File, error) {
	k, real, err := target(path)
	if err != nil {
		return nil, err
	}
	if k == kindStream {
		f, err := os.OpenFile(real, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return nil, err
		}
		return &File{File: f}, nil
	}
	perm := fs.FileMode(0o644)
	if st, err := os.Stat(real); err == nil {
		perm = st.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(real), "."+filepath.Base(real)+".*")
	if err != nil {
		return nil, err
	}
	// CreateTemp makes the file 0600.
	if err := f.Chmod(perm); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &File{File: f, final: real}, nil
}

// Commit closes f and, for a temp file, renames it onto its target.
func (f *File) Commit() error {
	err := f.File.Close()
	if f.final == "" {
		return err
	}
	if err == nil {
		err = os.Rename(f.Name(), f.final)
	}
	if err != nil {
		os.Remove(f.Name()) // e.g. the target became a directory: leave nothing behind
	}
	return err
}

// Abort closes f and removes its temp file.
func (f *File) Abort() {
	f.File.Close()
	if f.final != "" {
		os.Remove(f.Name())
	}
}

// writeAtomic writes b to a new or replaced regular file path (a name
// inside a claimed directory), atomically, 0644.
func writeAtomic(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	out := &File{File: f, final: path}
	if err := f.Chmod(0o644); err != nil {
		out.Abort()
		return err
	}
	if _, err := f.Write(b); err != nil {
		out.Abort()
		return err
	}
	return out.Commit()
}
