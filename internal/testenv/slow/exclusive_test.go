package slow

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// TestExclusive: tests asking for the same name hold it one at a time.
func TestExclusive(t *testing.T) {
	name := fmt.Sprintf("selftest-%d", os.Getpid())
	var holders, most atomic.Int32
	hold := func(t *testing.T) {
		Exclusive(t, name)
		n := holders.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(50 * time.Millisecond)
		holders.Add(-1)
	}
	t.Run("group", func(t *testing.T) {
		for i := range 3 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				hold(t)
			})
		}
	})
	if most.Load() != 1 {
		t.Errorf("%d tests held %q at once, want 1", most.Load(), name)
	}
	os.RemoveAll(filepath.Join(os.TempDir(), "lockbench-test-exclusive-"+name))
}
