package compare

import (
	"math"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestRatios: runs sorted by throughput, each with its ratio to the
// sequential run of the same client, workload, masters, workers and round
// trip, and its fraction of its masters' ceiling (with the ceiling's cost).
func TestRatios(t *testing.T) {
	run := func(client, mux string, masters int, rttUS, cps float64) schema.Run {
		return schema.Run{Name: client + "/" + mux, Backend: "redlock", Client: client, Mux: mux,
			Workload: "uncontended", Masters: masters, Workers: 64, AddedRTTUS: rttUS, Throughput: schema.Throughput{CyclesPerS: cps}}
	}
	slow := run("goredis", "fanout", 5, 1000, 40)
	slow.Name += "@1ms"
	runs := []schema.Run{
		run("goredis", "sequential", 5, 0, 100), run("goredis", "pipeline", 5, 0, 1000),
		run("rueidis", "sequential", 5, 0, 200), run("rueidis", "auto", 5, 0, 300),
		run("rueidis", "fanout", 3, 0, 50), // no sequential row for 3 masters
		slow,                               // no sequential row at 1 ms
	}
	cost := &schema.Cost{ClientCPUUSPerCycle: 14}
	setRatios(runs, map[int]Ceiling{5: {Masters: 5, CyclesPerS: 2000, Cost: cost}}, nil)
	for _, w := range []struct {
		name       string
		ratio, ofC float64 // 0: absent
	}{
		{"goredis/pipeline", 10, 0.5}, {"rueidis/auto", 1.5, 0.15}, {"rueidis/sequential", 1, 0.1},
		{"goredis/sequential", 1, 0.05}, {"rueidis/fanout", 0, 0}, {"goredis/fanout@1ms", 0, 0.02},
	} {
		var r *schema.Run
		for i := range runs {
			if runs[i].Name == w.name {
				r = &runs[i]
			}
		}
		for key, c := range map[string]struct {
			p    *float64
			want float64
		}{"vs_sequential": {r.VsSequential, w.ratio}, "of_ceiling": {r.OfCeiling, w.ofC}} {
			if (c.p != nil) != (c.want != 0) || (c.p != nil && math.Abs(*c.p-c.want) > 1e-9) {
				t.Errorf("%s %s = %v, want %v", r.Name, key, c.p, c.want)
			}
		}
		if (r.OfCeiling != nil) != (r.CeilingCost == cost) || (r.OfCeiling != nil) != (r.CeilingCyclesPerS != nil) {
			t.Errorf("%s: ceiling %v cost %v: want both with of_ceiling", r.Name, r.CeilingCyclesPerS, r.CeilingCost)
		}
	}
	for i := 1; i < len(runs); i++ {
		if runs[i].Throughput.CyclesPerS > runs[i-1].Throughput.CyclesPerS {
			t.Fatalf("not sorted by throughput at %s", runs[i].Name)
		}
	}
}
