package outpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// kind is how a file output is written.
type kind int

const (
	kindNew     kind = iota // nothing there yet: made atomically
	kindRegular             // a regular file, maybe behind symlinks: replaced atomically where it really is
	kindStream              // a FIFO, or a link the kernel resolves (/proc/self/fd/N): opened and written
)

// target says how path is written: its kind and the path to write (the
// regular file the symlinks lead to, else path itself). A directory, a
// device, a socket and a symlink to nothing are refused.
func target(path string) (kind, string, error) {
	switch {
	case path == "":
		return 0, "", errors.New("empty path")
	case strings.HasSuffix(path, string(os.PathSeparator)):
		return 0, "", errors.New("names a directory, want a file")
	}
	lst, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) { // the parent's check says which
		return kindNew, path, nil
	} else if err != nil {
		return 0, "", err
	}
	st := lst
	if lst.Mode()&fs.ModeSymlink != 0 {
		if st, err = os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			to, _ := os.Readlink(path)
			return 0, "", fmt.Errorf("is a symlink to nothing (%s); lockbench writes through a link, never replaces it", to)
		} else if err != nil {
			return 0, "", err
		}
	}
	if err := fileMode(st.Mode()); err != nil {
		return 0, "", err
	}
	if st.Mode().IsRegular() {
		if lst == st {
			return kindRegular, path, nil
		}
		// Behind symlinks: replace the file where it is, keeping the links.
		if real, err := filepath.EvalSymlinks(path); err == nil {
			if rst, err := os.Stat(real); err == nil && os.SameFile(rst, st) {
				return kindRegular, real, nil
			}
		}
	}
	return kindStream, path, nil
}

// fileMode refuses what a result file cannot be written into.
func fileMode(m fs.FileMode) error {
	switch {
	case m.IsDir():
		return errors.New("is a directory, want a file")
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return errors.New("is a device, want a file (- writes to stdout)")
	case m&fs.ModeSocket != 0:
		return errors.New("is a socket, want a file")
	case m.IsRegular(), m&fs.ModeNamedPipe != 0:
		return nil
	}
	return fmt.Errorf("is not a regular file (%v)", m.Type())
}

// CheckFile proves that path can be written as a file, before anything
// starts (one output alone; Plan checks them together): not a directory
// (an existing one, or by a trailing slash), a device, a socket or a
// symlink to nothing, and the directory its temp file goes into exists and
// takes new files. "-" (stdout) passes.
func CheckFile(path string) error {
	if path == "-" {
		return nil
	}
	k, real, err := target(path)
	if err != nil {
		return err
	}
	if k == kindStream {
		if err := syscall.Access(real, 2); err != nil { // W_OK
			return fmt.Errorf("not writable: %v", err)
		}
		return nil
	}
	return writableDir(filepath.Dir(real), "")
}

// writableDir accepts dir if it is an existing writable directory; the
// refusals name it with label first ("parent ").
func writableDir(dir, label string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%sdirectory %s does not exist", label, dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s%s is not a directory", label, dir)
	}
	return checkWritable(dir)
}

// CheckDir accepts an existing writable directory, or a new one whose
// parent is a writable directory (Claim makes it). "-" is refused: stdout
// cannot hold a directory's files.
func CheckDir(dir string) error {
	switch dir {
	case "":
		return errors.New("empty path")
	case "-":
		return errors.New("- is stdout; want a directory")
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && st.Mode().IsRegular():
		return errors.New("not a directory")
	case err == nil && !st.IsDir():
		return fmt.Errorf("not a directory (%s)", describe(st.Mode()))
	case err == nil:
		return checkWritable(dir)
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR): // ENOTDIR: a parent is a file
		if lst, lerr := os.Lstat(dir); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			to, _ := os.Readlink(dir)
			return fmt.Errorf("is a symlink to nothing (%s)", to)
		}
		return writableDir(filepath.Dir(filepath.Clean(dir)), "parent ")
	}
	return err
}

func describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// checkWritable proves a file can be created in dir, leaving nothing
// behind.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".lockbench-probe-*")
	if err != nil {
		return fmt.Errorf("not writable: %v", err)
	}
	f.Close()
	return os.Remove(f.Name())
}
