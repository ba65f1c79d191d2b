package main

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results"
)

// TestTwoProcessesMerged is the labs' distributed path in miniature: two
// lockbench OS processes (as two Indexed Job pods would be) drive the same
// masters at the same time into their own --out dirs, each on its own keys
// (--prefix, as the lab files do), and merge combines them into counts equal
// to their sums.
func TestTwoProcessesMerged(t *testing.T) {
	redis := startMasters(t, 3)
	tmp := t.TempDir()
	dirs := []string{filepath.Join(tmp, "worker-0"), filepath.Join(tmp, "worker-1")}
	var wg sync.WaitGroup
	codes, errs := make([]int, 2), make([]string, 2)
	for i, dir := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i], codes[i] = cli(t, 60*time.Second, runArgs(redis, dir, "--workload", "contended", "--keys", "4", "--prefix", fmt.Sprintf("p%d-", i))...)
		}()
	}
	wg.Wait()
	for i := range codes {
		if codes[i] != 0 {
			t.Fatalf("process %d: exit %d: %s", i, codes[i], errs[i])
		}
	}
	merged := filepath.Join(tmp, "merged")
	if _, stderr, code := cli(t, 60*time.Second, "merge", "-q", dirs[0], dirs[1], "-o", merged); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	var sum results.Counts
	for _, d := range dirs {
		s, err := results.ReadSummary(filepath.Join(d, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		sum.Cycles += s.Runs[0].Counts.Cycles
		sum.Attempts += s.Runs[0].Counts.Attempts
	}
	m, err := results.ReadSummary(filepath.Join(merged, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c := m.Runs[0].Counts; c.Cycles != sum.Cycles || c.Attempts != sum.Attempts || c.Cycles == 0 {
		t.Fatalf("merged cycles/attempts %d/%d, sum of the processes %d/%d", c.Cycles, c.Attempts, sum.Cycles, sum.Attempts)
	}
	if v := m.Runs[0].Counts.Violations; v != 0 {
		t.Errorf("merged violations %d: each process's referee sees all holders of its keys, want 0", v)
	}
	if m.Runs[0].Workers != 8 {
		t.Errorf("merged workers %d, want 8", m.Runs[0].Workers)
	}
}
