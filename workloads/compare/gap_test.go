package compare

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestGapsRoundByRound: each ratio is taken within a round (that round's
// floor over that round's ceiling, its cell over its floor), so a host
// that slows every figure of a round alike leaves the ratios alone; the
// best cell is the client's fastest at the floor's workers.
func TestGapsRoundByRound(t *testing.T) {
	run := func(name, client string, workers, round int, cps float64) schema.Run {
		r := schema.Run{Name: name, Client: client, Masters: 5, Workers: workers, Repeat: round}
		r.Throughput.CyclesPerS = cps
		return r
	}
	// Round 2 runs at half speed throughout.
	runs := []schema.Run{
		run("redlock/goredis/pipeline/uncontended", "goredis", 64, 1, 900), run("redlock/goredis/pipeline/uncontended", "goredis", 64, 2, 450),
		run("redlock/goredis/fanout/uncontended", "goredis", 64, 1, 300), run("redlock/goredis/fanout/uncontended", "goredis", 64, 2, 150),
		run("redlock/goredis/pipeline/many", "goredis", 256, 1, 5000), run("redlock/goredis/pipeline/many", "goredis", 256, 2, 5000),
		run("redlock/rueidis/pipeline/uncontended", "rueidis", 64, 1, 800), run("redlock/rueidis/pipeline/uncontended", "rueidis", 64, 2, 400),
	}
	ceilings := map[int][]Ceiling{5: {{Masters: 5, CyclesPerS: 2000}, {Masters: 5, CyclesPerS: 1000}}}
	floors := map[floorKey][]Floor{
		{5, "goredis"}: {{Client: "goredis", Masters: 5, Workers: 64, CyclesPerS: 1000}, {Client: "goredis", Masters: 5, Workers: 64, CyclesPerS: 500}},
		{5, "rueidis"}: {{Client: "rueidis", Masters: 5, Workers: 64, CyclesPerS: 1600}, {Client: "rueidis", Masters: 5, Workers: 64, CyclesPerS: 800, Errors: 3}},
	}
	medians := map[floorKey]Floor{}
	for k, fs := range floors {
		medians[k] = medianFloor(fs)
	}
	gs := gaps(runs, ceilings, floors, medians)
	if len(gs) != 2 || gs[0].Client != "goredis" || gs[1].Client != "rueidis" {
		t.Fatalf("gaps %+v: want goredis then rueidis", gs)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	g := gs[0]
	if g.Cell != "redlock/goredis/pipeline/uncontended" || !near(g.CellOfFloor.Median, 0.9) || !near(g.CellOfFloor.Lo, 0.9) || !near(g.CellOfFloor.Hi, 0.9) {
		t.Errorf("goredis: cell %s, cell/floor %+v: want the 64-worker pipeline cell at 0.9 in both rounds", g.Cell, g.CellOfFloor)
	}
	if !near(g.FloorOfCeiling.Median, 0.5) || !near(g.Ceiling, 1500) || !near(g.Floor, 750) || !near(g.CellCyclesPerS, 675) {
		t.Errorf("goredis: %+v", g)
	}
	if r := gs[1]; !near(r.FloorOfCeiling.Median, 0.8) || !near(r.CellOfFloor.Median, 0.5) || r.FloorErrors != 3 {
		t.Errorf("rueidis: %+v", r)
	}
	var b bytes.Buffer
	writeGaps(&b, gs)
	for _, want := range []string{"ceiling → floor → best cell", "goredis      1500      750      675  0.50 [0.50–0.50] 50%", "the floor had 3 failed commands"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("gaps text lacks %q:\n%s", want, b.String())
		}
	}
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
}
