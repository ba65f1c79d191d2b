package workloads

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockbench/lockbench/internal/testenv/slow"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"

	"github.com/lockbench/lockbench/drivers"
)

// windowLocker counts Lock calls by when they begin on clock: before, inside
// or after the measured window that CountWindow gives it (before any worker
// starts, so the workers read from and until without a race). A cycle begun
// after the end (the deadline's timer firing late) is not counted either way.
type windowLocker struct {
	memLocker
	noReferee
	clock          record.Clock
	from, until    int64
	before, inside atomic.Int64
}

func (c *windowLocker) CountWindow(from, until int64) { c.from, c.until = from, until }

func (c *windowLocker) Lock(ctx context.Context, key string) (drivers.Lease, drivers.Attempt, error) {
	switch now := c.clock.Now(); {
	case now < c.from:
		c.before.Add(1)
	case now < c.until:
		c.inside.Add(1)
	}
	return c.memLocker.Lock(ctx, key)
}

// TestRunWindowEdges: OnWindow sees the measured window's start, then its
// end, once each, not before the window's instants on the run clock; the
// cycles recorded are those begun inside the window, give or take one in
// flight per worker at each edge (begun before the start and ended inside,
// or begun inside and cut short at the end); a warmup's cycles are before
// the start. The cycles are placed on the clock, not by when the callback
// ran: on a loaded machine the start edge's timer fires late while the
// workers run on, and that lateness is not what is tested.
func TestRunWindowEdges(t *testing.T) {
	slow.CPU(t) // flat out: one per CPU across the packages go test runs at once
	for _, warmup := range []time.Duration{0, time.Second} {
		t.Run("warmup "+warmup.String(), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Workers, cfg.Warmup, cfg.Duration = 4, warmup, 1500*time.Millisecond
			cfg.Hold = time.Millisecond
			clock := record.NewClock()
			l := &windowLocker{memLocker: memLocker{lease: memLease{until: time.Now().Add(time.Hour)}}, clock: clock}
			var edges []bool
			var edgeAt []int64
			reg := record.NewRegistry(false)
			env := Env{Locker: l, Registry: reg, Clock: clock, Referee: l, OnWindow: func(end bool) {
				edges = append(edges, end)
				edgeAt = append(edgeAt, clock.Now())
			}}
			if _, err := Run(context.Background(), cfg, env); err != nil {
				t.Fatal(err)
			}
			if len(edges) != 2 || edges[0] || !edges[1] {
				t.Fatalf("edges %v, want [start end]", edges)
			}
			if edgeAt[0] < l.from || edgeAt[1] < l.until {
				t.Fatalf("edges at %v and %v on the clock: before the window [%v, %v)",
					time.Duration(edgeAt[0]), time.Duration(edgeAt[1]), time.Duration(l.from), time.Duration(l.until))
			}
			if got := time.Duration(l.until - l.from); got != cfg.Duration {
				t.Fatalf("window %v, want --duration %v", got, cfg.Duration)
			}
			if before := l.before.Load(); warmup > 0 && before == 0 {
				t.Fatal("no cycle before the window started: the warmup was measured")
			} else if warmup == 0 && before != 0 {
				t.Fatalf("%d cycles begun before a window with no warmup", before)
			}
			recorded := reg.Total().Count(schema.OpCycle, schema.OK)
			inside, slack := l.inside.Load(), int64(cfg.Workers)
			if recorded < inside-slack || recorded > inside+slack {
				t.Fatalf("%d cycles recorded, %d begun inside the window (±%d)", recorded, inside, slack)
			}
		})
	}
}
