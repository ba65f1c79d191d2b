package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/compose"
	"github.com/lockbench/lockbench/results"
)

// compare --baselines puts etcd and peer rows in the same table and JSON as
// the Redlock matrix, and stops the etcd members it started.
func TestCompareBaselines(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.json")
	_, stderr, code := cli(t, time.Minute, append([]string{"compare", "--masters", "3", "--clients", "goredis", "--muxes", "fanout", "--workloads", "contended",
		"--keys", "2", "--baselines", "etcd-rpc,redsync,rueidislock", "--etcd-members", "1",
		"--workers", "4", "--warmup", "0s", "--duration", "500ms", "-q", "--json", out}, loadTolerant(10*time.Second)...)...)
	if code != exitOK {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	// In-process, the etcd member was this test's child: the etcd row
	// below proves it ran, and it is gone once compare returned.
	if left := compose.Children(os.Getpid(), etcdMarker); len(left) > 0 {
		t.Errorf("etcd members %v still running after compare", left)
	}
	s, err := results.ReadSummary(out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{ // row → servers its lock lives on
		"redlock/goredis/fanout/contended": 3,
		"etcd/rpc/contended":               1,
		"redsync/fail-fast/contended":      3,
		"rueidislock/contended":            1,
	}
	for _, r := range s.Runs {
		m, ok := want[r.Name]
		if !ok {
			t.Errorf("unexpected row %q", r.Name)
			continue
		}
		delete(want, r.Name)
		if r.Masters != m {
			t.Errorf("%s: masters %d, want %d", r.Name, r.Masters, m)
		}
		if r.Counts.Acquired == 0 || r.Counts.Violations != 0 {
			t.Errorf("%s: counts %+v, want grants and no violations", r.Name, r.Counts)
		}
	}
	for name := range want {
		t.Errorf("row %q missing", name)
	}
}

func TestCompareBaselinesBadInput(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"--baselines chubby", "chubby"},
		{"--baselines etcd,etcd", "listed twice"},
		{"--baselines etcd --etcd-members 2", "--etcd-members 2"},
	} {
		t.Run(tc.args, func(t *testing.T) {
			_, stderr, code := cli(t, 10*time.Second, append([]string{"compare"}, strings.Fields(tc.args)...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q: want %d naming %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}
