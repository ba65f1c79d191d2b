package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/schema"
)

// pair is two runs at once on the same masters, each into its own --out
// dir and on its own keys (--prefix, as the lab files do): the input of
// every merge test, made once (concurrentRuns).
var pair struct {
	once  sync.Once
	dir   string       // holds a/ and b/
	redis string       // the masters' --redis value
	stop  func() error // stops the masters (TestMain)
	err   error
}

// concurrentRuns copies the two concurrent runs into a and b under a fresh
// temp dir (tests may write beside them) and returns a, b and the masters
// they ran on.
func concurrentRuns(t *testing.T) (a, b, redis string) {
	t.Helper()
	pair.once.Do(func() {
		r, err := compose.StartRedis(context.Background(), compose.RedisOptions{Masters: 3, Persistence: "none"})
		if err != nil {
			pair.err = err
			return
		}
		pair.redis, pair.stop = strings.Join(secretURLs(r), ","), r.Close
		if pair.dir, pair.err = os.MkdirTemp("", "lockbench-pair-"); pair.err != nil {
			return
		}
		var wg sync.WaitGroup
		errs := make([]string, 2)
		for i, name := range []string{"a", "b"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), slow.D(time.Minute))
				defer cancel()
				args := runArgs(pair.redis, filepath.Join(pair.dir, name), "--workload", "contended", "--keys", "4", "--prefix", fmt.Sprintf("p%d-", i))
				if _, stderr, code := runIn(ctx, args...); code != exit.OK {
					errs[i] = fmt.Sprintf("run %s: exit %d: %s", name, code, stderr)
				}
			}()
		}
		wg.Wait()
		if e := strings.Join(errs, ""); e != "" {
			pair.err = errors.New(e)
		}
	})
	if pair.err != nil {
		t.Fatal(pair.err)
	}
	tmp := t.TempDir()
	a, b = filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	copyDir(t, filepath.Join(pair.dir, "a"), a)
	copyDir(t, filepath.Join(pair.dir, "b"), b)
	return a, b, pair.redis
}

// closePair stops the pair's masters and removes its runs.
func closePair() {
	if pair.stop != nil {
		_ = pair.stop()
	}
	if pair.dir != "" {
		_ = os.RemoveAll(pair.dir)
	}
}

// TestTwoProcessesMerged is the labs' distributed path in miniature: two
// lockbench workers (as two Indexed Job pods would be) drive the same
// masters at the same time into their own --out dirs, each on its own keys,
// and merge combines them into counts equal to their sums.
func TestTwoProcessesMerged(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	a, b, _ := concurrentRuns(t)
	dirs := []string{a, b}
	tmp := filepath.Dir(a)
	merged := filepath.Join(tmp, "merged")
	if _, stderr, code := cli(t, 60*time.Second, "merge", "-q", dirs[0], dirs[1], "-o", merged); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	var sum schema.Counts
	for _, d := range dirs {
		s, err := schema.ReadSummary(filepath.Join(d, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		sum.Cycles += s.Runs[0].Counts.Cycles
		sum.Attempts += s.Runs[0].Counts.Attempts
	}
	m, err := schema.ReadSummary(filepath.Join(merged, "summary.json"))
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
