package outpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Dir is an output directory claimed by this process (Claim): no other
// lockbench writes it until Release.
type Dir struct {
	path    string
	lock    *os.File
	created bool // Claim made the directory
	newLock bool // and the lock file
	wrote   bool
	m       manifest
	earlier bool
}

// Claim takes dir for one result: it makes the directory if needed, holds
// its lock (another live lockbench holding it is a *HeldError) and reads
// its manifest. A file there that a result could be written over (a
// summary.json, config.json, sweep.json or .hlog file) that the manifest
// does not list with its content is a *ForeignError: lockbench did not
// write it, so it will not replace or remove it.
func Claim(dir string) (*Dir, error) {
	if err := CheckDir(dir); err != nil {
		return nil, err
	}
	created := false
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		err := os.Mkdir(dir, 0o755)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		created = err == nil // else another process made it just now
	}
	d := &Dir{path: dir, created: created}
	if err := d.takeLock(); err != nil {
		if created {
			os.Remove(dir) // only if empty
		}
		return nil, err
	}
	m, err := readManifest(dir)
	if err == nil {
		err = m.check(dir)
	}
	if err != nil {
		d.Release()
		return nil, err
	}
	d.m = m
	d.earlier, _ = m.owns(dir, "summary.json")
	return d, nil
}

// takeLock opens (never through a link) and flocks the lock file, writing
// this process's pid into it for the message of the next one.
func (d *Dir) takeLock() error {
	p := filepath.Join(d.path, LockName)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o644)
	d.newLock = err == nil
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(p, os.O_RDWR|syscall.O_NOFOLLOW, 0)
	}
	if errors.Is(err, syscall.ELOOP) {
		return &ForeignError{LockName}
	} else if err != nil {
		return err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return &ForeignError{LockName}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		d.newLock = false // another's
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := strings.TrimSpace(string(b[:n]))
			if _, perr := strconv.Atoi(pid); perr != nil {
				pid = ""
			}
			return &HeldError{PID: pid}
		}
		return err
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	d.lock = f
	return nil
}

// Path is the directory.
func (d *Dir) Path() string { return d.path }

// Earlier reports whether the directory held a result lockbench wrote
// there (a summary.json its manifest lists), which Replace replaces.
func (d *Dir) Earlier() bool { return d.earlier }

// NamedFile is one file of a result: its name in the directory and content.
type NamedFile struct {
	Name string
	Data []byte
}

// Replace makes files the directory's result, written in order, each
// atomically: a file of the same name is replaced only if lockbench wrote
// it (else a *ForeignError, and nothing is written); files of the earlier
// result that this one does not have are removed, where they still hold
// what lockbench wrote. The manifest lists the old and new content while
// files are replaced, the new only after.
func (d *Dir) Replace(files []NamedFile) error {
	next := map[string][]string{}
	for _, f := range files {
		if err := validName(f.Name); err != nil {
			return err
		}
		if _, dup := next[f.Name]; dup {
			return fmt.Errorf("outpath: %s given twice", f.Name)
		}
		if _, err := d.m.owns(d.path, f.Name); err != nil {
			return err
		}
		next[f.Name] = []string{sum(f.Data)}
	}
	during := manifest{Schema: manifestSchema, Files: map[string][]string{}}
	for n, hs := range d.m.Files {
		during.Files[n] = append([]string(nil), hs...)
	}
	for n, hs := range next {
		during.Files[n] = append(during.Files[n], hs...)
	}
	d.wrote = true
	if err := during.write(d.path); err != nil {
		return err
	}
	for _, f := range files {
		if err := writeAtomic(filepath.Join(d.path, f.Name), f.Data); err != nil {
			return err
		}
	}
	var errs []error
	for n := range d.m.Files {
		if _, keep := next[n]; keep {
			continue
		}
		if ok, err := d.m.owns(d.path, n); ok {
			if err := os.Remove(filepath.Join(d.path, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
				next[n] = d.m.Files[n] // still there, still ours
			}
		} else if err != nil && !errors.As(err, new(*ForeignError)) {
			errs = append(errs, err)
		}
	}
	d.m = manifest{Schema: manifestSchema, Files: next}
	if err := d.m.write(d.path); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// Release lets another process claim the directory. What Claim made (the
// lock file, the directory) is removed again when no result was written.
func (d *Dir) Release() {
	if d.lock == nil {
		return
	}
	if d.newLock && !d.wrote { // removed while still held
		os.Remove(filepath.Join(d.path, LockName))
	}
	if d.created && !d.wrote {
		os.Remove(d.path) // only if empty
	}
	d.lock.Close() // closing the last descriptor drops the flock
	d.lock = nil
}
