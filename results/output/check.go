package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CheckFile proves that path can become a file, before anything starts:
// it must not name a directory (an existing one, or by a trailing slash),
// and its parent must be an existing directory files can be created in.
// The write itself is atomic (a temp file beside it, then a rename), so a
// check that passes leaves only the rename to fail. "-" (stdout) passes.
func CheckFile(path string) error {
	switch {
	case path == "-":
		return nil
	case path == "":
		return errors.New("empty path")
	case strings.HasSuffix(path, string(os.PathSeparator)):
		return errors.New("names a directory, want a file")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return errors.New("is a directory, want a file")
	} else if err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("is not a regular file (%v)", st.Mode().Type())
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case os.IsNotExist(err):
		return fmt.Errorf("directory %s does not exist", dir)
	case err != nil:
		return err
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return checkWritable(dir)
}

// Check proves, before anything is measured, that w's JSON file and Out
// directory can be written (CheckFile, CheckDir): an *Error of Dest "json"
// or "out" says which cannot.
func (w Writer) Check() error {
	if w.JSON != "" {
		if err := CheckFile(w.JSON); err != nil {
			return &Error{"json", w.JSON, err}
		}
	}
	if w.Out != "" {
		if err := CheckDir(w.Out); err != nil {
			return &Error{"out", w.Out, err}
		}
	}
	return nil
}

// CheckDir accepts an existing writable directory, or one whose parent is
// writable (it is made at write time).
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return errors.New("not a directory")
	case err == nil:
		return checkWritable(dir)
	case os.IsNotExist(err):
		return checkWritable(filepath.Dir(filepath.Clean(dir)))
	}
	return err
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
