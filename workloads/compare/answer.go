package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// minRounds is the fewest rounds per cell an answer is given for: an
// interval of fewer samples is wider than the differences it would judge
// (2 rounds: [min, max] holds the median half the time).
const minRounds = 3

// Answer is one workload's ranking (per masters count and added round
// trip) from a compare measured in rounds: every cell's median cycles/s
// with its interval, the ranks those intervals allow, and what it says.
type Answer struct {
	Workload string `json:"workload"`
	// Masters is the masters count of the lab when a compare had several
	// (0: one).
	Masters    int     `json:"masters,omitempty"`
	AddedRTTUS float64 `json:"added_rtt_us,omitempty"`
	// Standings are the cells, best first: by rank, then median.
	Standings []Standing `json:"standings"`
	// Rounds is the fewest complete rounds a cell of the workload has.
	Rounds int `json:"rounds"`
	// Tie: the top cells share the first rank (their intervals overlap, or
	// there are too few rounds to tell).
	Tie bool `json:"tie"`
	// Lead is the first cell's cycles/s over the second's, round by round
	// (both measured in the same round, so on the same machine state):
	// the median of those ratios and its interval. Nil with one cell.
	Lead *stats.MedianCI `json:"lead,omitempty"`
}

// Standing is one cell of an Answer.
type Standing struct {
	Cell string         `json:"cell"`
	Rate stats.MedianCI `json:"cycles_per_s"`
	// Rerun is where another compare of as many rounds would put the
	// cell's median (rerunRange): wider than Rate, which holds the median
	// of this machine's cell, not another run's.
	Rerun Range `json:"rerun"`
	// Rank from 1; cells whose intervals overlap or whose medians lie
	// within 10 % (tieWithin), directly or through a chain of cells, share the
	// rank of the best of them (Tied).
	Rank int  `json:"rank"`
	Tied bool `json:"tied"`
}

// Answers ranks runs measured in rounds (stats.Repeats) per workload,
// masters count and added round trip, in the order the workloads first
// appear. Each cell's sample is its complete rounds' cycles/s. Baseline
// rows (etcd, ZooKeeper, …) rank beside the Redlock cells measured on
// the same lab: the masters count is the compare's (the /Nm of the run's
// name), not the row's own servers.
func Answers(runs []schema.Run) []Answer {
	type key struct {
		workload string
		masters  int
		rtt      float64
	}
	var keys []key
	rows := map[key][][]schema.Run{}
	for _, row := range stats.Repeats(runs) {
		r := row[0]
		k := key{r.Workload, mastersOf(r.Name), r.AddedRTTUS}
		if _, ok := rows[k]; !ok {
			keys = append(keys, k)
		}
		rows[k] = append(rows[k], row)
	}
	out := make([]Answer, 0, len(keys))
	for _, k := range keys {
		a := rank(rows[k])
		a.Workload, a.Masters, a.AddedRTTUS = k.workload, k.masters, k.rtt
		out = append(out, a)
	}
	return out
}

// rank makes the Answer of one workload's cells (each a row of rounds).
func rank(rows [][]schema.Run) Answer {
	a := Answer{}
	for i, row := range rows {
		s := complete(row)
		xs := make([]float64, len(s))
		for j, r := range s {
			xs[j] = r.Throughput.CyclesPerS
		}
		a.Standings = append(a.Standings, Standing{Cell: row[0].Name, Rate: stats.MedianInterval(xs, stats.Confidence),
			Rerun: rerunRange(xs, rerunLevel)})
		if i == 0 || len(s) < a.Rounds {
			a.Rounds = len(s)
		}
	}
	rankStandings(a.Standings)
	if len(a.Standings) < 2 {
		return a
	}
	a.Tie = a.Standings[1].Rank == 1 || a.Rounds < minRounds
	best, next := a.Standings[0].Cell, a.Standings[1].Cell
	var ratios []float64
	byName := map[string][]schema.Run{}
	for _, row := range rows {
		byName[row[0].Name] = complete(row)
	}
	for _, b := range byName[best] {
		for _, n := range byName[next] {
			if n.Repeat == b.Repeat && n.Throughput.CyclesPerS > 0 {
				ratios = append(ratios, b.Throughput.CyclesPerS/n.Throughput.CyclesPerS)
			}
		}
	}
	if len(ratios) > 0 {
		lead := stats.MedianInterval(ratios, stats.Confidence)
		a.Lead = &lead
	}
	return a
}

// mastersOf is the masters count a compare of several named its run with
// (a "/Nm" part of the name), 0 without one.
func mastersOf(name string) int {
	for _, part := range strings.Split(name, "/") {
		if n, ok := strings.CutSuffix(part, "m"); ok {
			if m, err := strconv.Atoi(n); err == nil && m > 0 {
				return m
			}
		}
	}
	return 0
}

// complete are a row's complete rounds (stats.Samples: the cut-short
// ones only when no round completed).
func complete(row []schema.Run) []schema.Run { return stats.Samples(row) }

// tieWithin is the smallest difference of medians an answer calls a
// difference: cells closer than that share a rank even when their
// intervals do not overlap. The intervals hold within-run noise only;
// runs of one cell minutes apart on one idle 2-core machine differ by
// more (docs/answers.md has the measurement), so a smaller lead would not
// survive a rerun.
const tieWithin = 0.10

// rankStandings orders standings best first and gives each its rank. Cells that
// cannot be told apart share a rank, and so does a chain of them (A ties
// B, B ties C): two cells tie when their intervals overlap or their
// medians are within tieWithin of each other. Each cell's reach is its
// interval widened, where narrower, to its median ÷ and × √(1+tieWithin),
// so reaches overlap exactly when either holds (up to rounding of the two
// rules into one); the groups are the connected stretches of the reaches'
// union, which are disjoint and so ordered. A group's cells rank as its
// best would (1, 1, 3: competition ranking), by median within it.
func rankStandings(st []Standing) {
	slices.SortStableFunc(st, func(a, b Standing) int { // by top of the reach: the merge order
		return cmp.Or(cmp.Compare(reachHi(b), reachHi(a)), cmp.Compare(b.Rate.Median, a.Rate.Median))
	})
	var groups [][]Standing
	low := 0.0
	for i, s := range st {
		if i == 0 || reachHi(s) < low {
			groups = append(groups, nil)
			low = reachLo(s)
		}
		low = min(low, reachLo(s))
		groups[len(groups)-1] = append(groups[len(groups)-1], s)
	}
	st = st[:0]
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b Standing) int { return cmp.Compare(b.Rate.Median, a.Rate.Median) })
		rank := len(st) + 1
		for _, s := range g {
			s.Rank, s.Tied = rank, len(g) > 1
			st = append(st, s)
		}
	}
}

// reachLo and reachHi are the ends of s's reach (rankStandings).
func reachLo(s Standing) float64 { return min(s.Rate.Lo, s.Rate.Median/math.Sqrt(1+tieWithin)) }
func reachHi(s Standing) float64 { return max(s.Rate.Hi, s.Rate.Median*math.Sqrt(1+tieWithin)) }

// budget is what a compare spent on its answers: rounds of cells, each
// cell its warmup and duration, and the wall time it took.
type budget struct {
	Rounds, Cells    int
	Warmup, Duration time.Duration
	Took             time.Duration
}

func (b budget) String() string {
	return fmt.Sprintf("%d rounds × %d cells × (%v warmup + %v), interleaved, in %v",
		b.Rounds, b.Cells, b.Warmup, b.Duration, b.Took.Round(time.Second))
}
