package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// checkFile proves that path can become a file, before anything starts: it
// must not name a directory (an existing one, or by a trailing slash), and
// its parent must be an existing directory we can create files in. The
// write itself is atomic (a temp file beside it, then a rename), so a check
// that passes here leaves only the rename to fail.
func checkFile(path string) error {
	if path == "" {
		return errors.New("empty path")
	}
	if strings.HasSuffix(path, string(os.PathSeparator)) {
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

// checkOutputFile is checkFile as a usage error naming the flag; "-"
// (stdout) passes.
func checkOutputFile(flag, path string) error {
	if path == "-" {
		return nil
	}
	if err := checkFile(path); err != nil {
		return usagef("%s %q: %v", flag, path, err)
	}
	return nil
}

// pruneOutDir removes from an --out directory being reused the artefacts
// of an earlier run that this one did not replace: interval logs not in
// keep, a sweep.json (a sweep writes its own after), and temp files a
// killed writer left. A directory holds one result at a time, so a report
// or merge of it never mixes two runs. Files lockbench does not write are
// left alone.
func pruneOutDir(dir string, keep map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || keep[n] {
			continue
		}
		if strings.HasSuffix(n, ".hlog") || n == "sweep.json" || isTempArtefact(n) {
			if err := os.Remove(filepath.Join(dir, n)); err != nil && !os.IsNotExist(err) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// isTempArtefact matches results.WriteFileAtomic's temp names (".NAME.*")
// of the files lockbench writes into an --out directory.
func isTempArtefact(n string) bool {
	for _, base := range []string{"summary.json", "config.json", "sweep.json"} {
		if strings.HasPrefix(n, "."+base+".") {
			return true
		}
	}
	return strings.HasPrefix(n, ".") && strings.Contains(n, ".hlog.")
}

// keptLogs lists the interval logs of sum's runs already in dir (written by
// merge itself before it calls writeOutDir).
func keptLogs(dir string, sum *results.Summary, keep map[string]bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		for _, r := range sum.Runs {
			if strings.HasPrefix(e.Name(), results.Slug(r.Name)+".") && strings.HasSuffix(e.Name(), ".hlog") {
				keep[e.Name()] = true
			}
		}
	}
}
