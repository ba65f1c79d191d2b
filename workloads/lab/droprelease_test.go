package lab_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestMeasureDropRelease: one release lost (drop-release) on a contended
// key over real masters leaves the key held until its TTL: the cell is
// flagged stalled, the stall longer than the threshold, its cause the
// leftover key after one failed release. With --release-retry the same
// loss is retried while the lease is valid: no stall, the lost release
// counted beside its retry.
func TestMeasureDropRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("starts redis-server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := lab.DefaultConfig()
	cfg.Topology.Redis.Masters = 3
	cfg.Driver.Client, cfg.Driver.Mux = "goredis", "sequential"
	cfg.Driver.Redlock.NodeTimeout = 200 * time.Millisecond
	cfg.Driver.Redlock.TTL = 5 * time.Second
	w := &cfg.Workload
	w.Workload, w.Keys, w.Workers = "contended", 1, 4
	w.Duration, w.Warmup, w.StallAfter, w.Tries = 5*time.Second, 200*time.Millisecond, 2*time.Second, 1<<20
	cfg.Faults = []string{"drop-release:at=1s"}
	l := upLab(t, ctx, cfg)
	for _, retry := range []bool{false, true} {
		w.ReleaseRetry = retry
		w.Prefix = map[bool]string{false: "once", true: "retried"}[retry]
		var log bytes.Buffer
		c, err := l.Measure(ctx, cfg, lab.Observers{Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		r := c.Run
		if !strings.Contains(log.String(), "drop-release") {
			t.Errorf("retry %v: log %q tells no drop-release event", retry, log.String())
		}
		if r.Counts.ReleaseErrors != 1 || r.Counts.Violations != 0 {
			t.Errorf("retry %v: counts %+v: want the one lost release, no violation", retry, r.Counts)
		}
		if retry {
			if r.Stalled() {
				t.Errorf("release-retry: stalled %v", r.Stalls)
			}
			continue
		}
		if !r.Stalled() {
			t.Fatalf("a lost release on a contended key: not flagged stalled (counts %+v)", r.Counts)
		}
		s := r.LongestStall()
		if s.Cause != schema.CauseLeftoverKey || s.ReleaseErrors != 1 || s.Duration <= w.StallAfter {
			t.Errorf("stall %v: want a leftover key after the one lost release, over %v", s, w.StallAfter)
		}
		if len(r.Failures()) == 0 {
			t.Error("stalled run: no failure reported")
		}
	}
}
