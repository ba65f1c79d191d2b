package compose

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// removeLeftovers removes exactly the dirs whose owner lock nobody holds.
func TestRemoveLeftovers(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, lock, hold bool) string {
		dir := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(dir, "0"), 0o755); err != nil {
			t.Fatal(err)
		}
		if !lock {
			return dir
		}
		f, err := os.Create(filepath.Join(dir, ownerLock))
		if err != nil {
			t.Fatal(err)
		}
		if hold {
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
		} else {
			f.Close()
		}
		return dir
	}
	tests := []struct {
		name, dir  string
		wantRemove bool
	}{
		{"owner gone", mk("lockbench-redis-gone", true, false), true},
		{"owner alive", mk("lockbench-redis-alive", true, true), false},
		{"no owner lock (older lockbench, or being made)", mk("lockbench-redis-old", false, false), false},
		{"other prefix", mk("someone-else", true, false), false},
	}
	removed := removeLeftovers(tmp, "lockbench-redis-")
	for _, tc := range tests {
		_, err := os.Stat(tc.dir)
		if gone := os.IsNotExist(err); gone != tc.wantRemove {
			t.Errorf("%s: removed=%v, want %v (removed %v)", tc.name, gone, tc.wantRemove, removed)
		}
	}
}

// ownedTempDir holds its lock until released: a sweep meanwhile keeps it.
func TestOwnedTempDirHeldUntilClosed(t *testing.T) {
	dir, owner, err := ownedTempDir("lockbench-test-owned-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	removeLeftovers(os.TempDir(), "lockbench-test-owned-")
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("held dir removed: %v", err)
	}
	owner.Close()
	removeLeftovers(os.TempDir(), "lockbench-test-owned-")
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("released dir kept: %v", err)
	}
}
