package record

import (
	"github.com/lockbench/lockbench/results/schema"
)

// OpCounts are counts of every op by outcome.
type OpCounts [schema.NumOps][schema.NumOutcomes]int64

// Count is how many of op ended with o.
func (c *OpCounts) Count(op schema.Op, o schema.Outcome) int64 { return c[op][o] }

// Total is how many of op were recorded, any outcome.
func (c *OpCounts) Total(op schema.Op) int64 {
	var n int64
	for _, v := range c[op] {
		n += v
	}
	return n
}

// Minus is c − d, count by count.
func (c OpCounts) Minus(d OpCounts) OpCounts {
	for op := range c {
		for o := range c[op] {
			c[op][o] -= d[op][o]
		}
	}
	return c
}

// Live is every count recorded in the window so far, merged or not yet:
// the total plus what the shards hold since the last tick. It reads the
// shards' counters without draining them, under the registry's mutex (a
// tick cannot move a count between the two while it reads): for watchers
// that look more often than once a second, never per sample.
func (g *Registry) Live() OpCounts {
	g.mu.Lock()
	defer g.mu.Unlock()
	c := OpCounts(g.total.counts)
	for _, s := range g.shards {
		for op := range s.counts {
			for o := range s.counts[op] {
				c[op][o] += s.counts[op][o].Load()
			}
		}
	}
	return c
}
