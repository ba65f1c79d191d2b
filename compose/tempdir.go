package compose

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ownerLock is the file inside a server temp dir that its lockbench process
// holds an flock on for as long as it lives. The kernel drops the lock when
// the process dies, however it dies (SIGKILL included), so "nobody holds
// the lock" is a race-free "the owner is gone", unlike a pid that the system
// may have given to another process since.
const ownerLock = "owner.lock"

// ownedTempDir makes a temp dir prefix* and holds its owner lock; close the
// returned file (after removing the dir) to release it. It first removes the
// leftovers of earlier processes with the same prefix that were killed
// before they could clean up (removeLeftovers).
func ownedTempDir(prefix string) (string, *os.File, error) {
	removeLeftovers(os.TempDir(), prefix)
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, fmt.Errorf("compose: %w", err)
	}
	// Lock under a temporary name, then rename: a concurrent sweeper only
	// looks at ownerLock, so it never sees a lock file not yet locked.
	tmp := filepath.Join(dir, ownerLock+".new")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o600)
	if err == nil {
		if err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid()) // for a person looking; the lock decides
			err = os.Rename(tmp, filepath.Join(dir, ownerLock))
		}
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("compose: owner lock in %s: %w", dir, err)
	}
	return dir, f, nil
}

// removeLeftovers removes the dirs prefix* in tmp whose owner lock nobody
// holds. A dir without an owner lock (being created, or made by an older
// lockbench) is left alone. It returns the dirs it removed.
func removeLeftovers(tmp, prefix string) []string {
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		dir := filepath.Join(tmp, e.Name())
		if orphaned(dir) && os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

// orphaned reports whether dir's owner lock exists and can be taken.
func orphaned(dir string) bool {
	f, err := os.Open(filepath.Join(dir, ownerLock))
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) || err != nil {
		return false // held: its owner is alive
	}
	return true // closing f releases our lock; the dir is removed next
}
