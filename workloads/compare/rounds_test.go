package compare

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
)

// TestRoundOrder: every round measures every cell once; forward, then
// backward, so over each pair of rounds every cell's mean position is the
// middle (drift spreads over all cells); each pair rotated by one, so no
// cell is always first or last.
func TestRoundOrder(t *testing.T) {
	for _, tc := range []struct {
		cells, rounds int
		want          [][]int
	}{
		{1, 3, [][]int{{0}, {0}, {0}}},
		{3, 1, [][]int{{0, 1, 2}}},
		{4, 2, [][]int{{0, 1, 2, 3}, {3, 2, 1, 0}}},
		{3, 3, [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}}},
		{3, 6, [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {0, 2, 1}, {2, 0, 1}, {1, 0, 2}}},
		{8, 4, nil},
		{5, 6, nil},
	} {
		t.Run(fmt.Sprintf("%d cells × %d rounds", tc.cells, tc.rounds), func(t *testing.T) {
			pos := make([]float64, tc.cells) // each cell's summed position
			for r := range tc.rounds {
				order := RoundOrder(tc.cells, r)
				if tc.want != nil && !slices.Equal(order, tc.want[r]) {
					t.Errorf("round %d: %v, want %v", r, order, tc.want[r])
				}
				if s := slices.Sorted(slices.Values(order)); len(s) != tc.cells || (tc.cells > 0 && (s[0] != 0 || s[tc.cells-1] != tc.cells-1 || len(slices.Compact(s)) != tc.cells)) {
					t.Errorf("round %d: %v is not every cell once", r, order)
				}
				for p, c := range order {
					pos[c] += float64(p)
				}
			}
			if tc.rounds%2 == 1 {
				return
			}
			for c, p := range pos {
				if mean, mid := p/float64(tc.rounds), float64(tc.cells-1)/2; mean != mid {
					t.Errorf("cell %d: mean position %v, want the middle %v", c, mean, mid)
				}
			}
		})
	}
}

// TestGroups: consecutive cells of one masters count share one lab.
func TestGroups(t *testing.T) {
	cells := []Cell{{Masters: 3}, {Masters: 3}, {Masters: 5}, {Masters: 7}, {Masters: 7}, {Masters: 7}}
	if got, want := groups(cells), []group{{0, 2}, {2, 3}, {3, 6}}; !slices.Equal(got, want) {
		t.Errorf("groups %v, want %v", got, want)
	}
	if got := groups(nil); len(got) != 0 {
		t.Errorf("groups of nothing: %v", got)
	}
}

// rounds is runs of one cell per cycles/s given, rounds 1…; seq names the
// sequential cell.
func roundsOf(client, mux string, cps ...float64) []schema.Run {
	var out []schema.Run
	for i, c := range cps {
		out = append(out, schema.Run{Name: client + "/" + mux, Backend: "redlock", Client: client, Mux: mux, Workload: "uncontended",
			Masters: 5, Workers: 64, Repeat: i + 1, Throughput: schema.Throughput{CyclesPerS: c}})
	}
	return out
}

// TestRatiosOfRounds: with rounds, the baseline is the sequential cell's
// median; each round's ratio is its own over it, so the table's ratio
// (the median of a cell's) is the ratio of the medians; runs sort by
// their cell's median with its rounds together and in order; the
// ceiling is the median of the rounds'; rankings and the summary lines
// use the medians.
func TestRatiosOfRounds(t *testing.T) {
	var runs []schema.Run
	// rounds interleaved as Run collects them
	seq, fan, pipe := roundsOf("r", "sequential", 100, 120, 110), roundsOf("r", "fanout", 95, 70, 99), roundsOf("r", "pipeline", 400, 380, 390)
	for i := range 3 {
		runs = append(runs, seq[i], fan[i], pipe[i])
	}
	ceil := medianCeiling([]Ceiling{{CyclesPerS: 1000}, {CyclesPerS: 800, SetPerS: 1}, {CyclesPerS: 900, SetPerS: 2}})
	if ceil.CyclesPerS != 900 || ceil.SetPerS != 2 || !slices.Equal(ceil.Rounds, []float64{1000, 800, 900}) {
		t.Errorf("ceiling %+v: want the median round's 900 with every round's rate", ceil)
	}
	if two := medianCeiling([]Ceiling{{CyclesPerS: 1000}, {CyclesPerS: 800, SetPerS: 1}}); two.CyclesPerS != 900 || two.SetPerS != 1 {
		t.Errorf("two ceilings %+v: want 900 from the lower round", two)
	}
	setRatios(runs, map[int]Ceiling{5: ceil}, nil)
	var order []string
	for _, r := range runs {
		order = append(order, fmt.Sprintf("%s#%d", r.Mux, r.Repeat))
		if want := r.Throughput.CyclesPerS / 110; math.Abs(*r.VsSequential-want) > 1e-12 {
			t.Errorf("%s round %d: vs seq %v, want %v over the sequential median", r.Name, r.Repeat, *r.VsSequential, want)
		}
		if *r.CeilingCyclesPerS != 900 {
			t.Errorf("%s: ceiling %v, want the median 900", r.Name, *r.CeilingCyclesPerS)
		}
	}
	want := "pipeline#1 pipeline#2 pipeline#3 sequential#1 sequential#2 sequential#3 fanout#1 fanout#2 fanout#3"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	ratios := vsSequential(runs)
	for name, want := range map[string]float64{"r/sequential": 1, "r/fanout": 95.0 / 110, "r/pipeline": 390.0 / 110} {
		if math.Abs(ratios[name]-want) > 1e-12 {
			t.Errorf("%s: table ratio %v, want the ratio of the medians %v", name, ratios[name], want)
		}
	}
	var b bytes.Buffer
	writeSummary(&b, runs, map[int]float64{5: ceil.CyclesPerS})
	if n := strings.Count(b.String(), "r/fanout"); n != 1 || !strings.Contains(strings.Join(strings.Fields(b.String()), " "), "r/fanout 95 0.86×") {
		t.Errorf("summary: fanout %d times, want once at its median 95:\n%s", n, b.String())
	}
	var rtt []schema.Run
	for _, r := range runs {
		r2 := r
		r2.Name, r2.AddedRTTUS = r.Name+"/rtt=1ms", 1000
		if r.Mux == "fanout" {
			r2.Throughput.CyclesPerS *= 10 // fan-out first across a rack
		}
		rtt = append(rtt, r, r2)
	}
	rk := rankingsOf(rtt, []time.Duration{0, time.Millisecond})
	if len(rk) != 1 || len(rk[0].Cells) != 3 || rk[0].Cells[2].Cell != "r/fanout" || rk[0].Cells[2].CyclesPerS[1] != 950 || rk[0].Cells[2].Rank[1] != 1 {
		t.Errorf("rankings %+v: want fanout last direct and first at 1ms with its median 950", rk)
	}
}
