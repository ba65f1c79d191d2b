package workloads

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/drivers"
	"github.com/lockbench/lockbench/results"
)

// countingLocker counts Lock calls.
type countingLocker struct {
	memLocker
	locks atomic.Int64
}

func (c *countingLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	c.locks.Add(1)
	return c.memLocker.Lock(ctx, key)
}

// TestRunWindowEdges: OnWindow sees the measured window's start, then its
// end, once each, and the cycles recorded are those begun between the two
// edges (give or take those in flight at each edge); a warmup's cycles are
// before the start.
func TestRunWindowEdges(t *testing.T) {
	for _, warmup := range []time.Duration{0, time.Second} {
		t.Run("warmup "+warmup.String(), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Workers, cfg.Warmup, cfg.Duration = 4, warmup, 1500*time.Millisecond
			cfg.Hold = time.Millisecond
			l := &countingLocker{memLocker: memLocker{lease: memLease{until: time.Now().Add(time.Hour)}}}
			var edges []bool
			var atStart, atEnd int64
			reg := results.NewRegistry(false)
			env := Env{Locker: l, Registry: reg, Clock: results.NewClock(), OnWindow: func(end bool) {
				edges = append(edges, end)
				if end {
					atEnd = l.locks.Load()
				} else {
					atStart = l.locks.Load()
				}
			}}
			if _, err := Run(context.Background(), cfg, env); err != nil {
				t.Fatal(err)
			}
			if len(edges) != 2 || edges[0] || !edges[1] {
				t.Fatalf("edges %v, want [start end]", edges)
			}
			if warmup > 0 && atStart == 0 {
				t.Fatal("no cycle before the window started: the warmup was measured")
			}
			// The edge is sampled right after the registry's reset, while the
			// workers run on: allow what completes meanwhile (2 %), and one
			// cycle in flight per worker.
			recorded := reg.Total().Count(results.OpCycle, results.OK)
			between := atEnd - atStart
			slack := int64(cfg.Workers) + between/50
			if recorded < between-slack || recorded > between+slack {
				t.Fatalf("%d cycles recorded, %d begun inside the window (±%d)", recorded, between, slack)
			}
		})
	}
}
