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
	// Tie: the top cells share the first rank (no lead of more than
	// tieWithin shown, or too few rounds to tell).
	Tie bool `json:"tie"`
	// Lead is the first cell's cycles/s over the second's, round by round
	// (both measured in the same round, so on the same machine state):
	// the median of those ratios and its interval. Nil with one cell.
	Lead *stats.MedianCI `json:"lead,omitempty"`
	// Holds is how often the rounds, resampled, give the same first rank
	// (nil when the rounds could not be paired).
	Holds *Holds `json:"holds,omitempty"`
	// Machine is the memory probe's view of the workload's rounds (nil
	// without probes).
	Machine *Machine `json:"machine,omitempty"`
}

// Standing is one cell of an Answer.
type Standing struct {
	Cell string `json:"cell"`
	// Client and Mux are the cell's client library and strategy (empty
	// for a baseline row without that choice).
	Client string         `json:"client,omitempty"`
	Mux    string         `json:"mux,omitempty"`
	Rate   stats.MedianCI `json:"cycles_per_s"`
	// Rerun is where another compare of as many rounds would put the
	// cell's median (rerunRange): wider than Rate, which holds the median
	// of this machine's cell, not another run's.
	Rerun Range `json:"rerun"`
	// Rank from 1 (rankPaired; rankStandings when the rounds cannot be
	// paired): cells that cannot be told apart share the rank of the best
	// of them (Tied).
	Rank int  `json:"rank"`
	Tied bool `json:"tied"`
	// Behind is the paired ratio the rank was decided on, round by round:
	// when the cell opens a rank, the cycles/s over its own of the cell of
	// the rank above that was most surely ahead of it; when it shares a
	// rank, that of the rank's best. Nil for the first cell and when the
	// rounds could not be paired.
	Behind *stats.MedianCI `json:"behind,omitempty"`
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
		a.Machine = machineOf(slices.Concat(rows[k]...))
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
		a.Standings = append(a.Standings, Standing{Cell: row[0].Name, Client: row[0].Client, Mux: row[0].Mux, Rate: stats.MedianInterval(xs, stats.Confidence),
			Rerun: rerunRange(xs, rerunLevel)})
		if i == 0 || len(s) < a.Rounds {
			a.Rounds = len(s)
		}
	}
	byName := map[string][]roundRate{}
	for _, row := range rows {
		byName[row[0].Name] = ratesOf(complete(row))
	}
	paired := a.Rounds >= minRounds && rankPaired(a.Standings, byName)
	if !paired {
		rankStandings(a.Standings)
	}
	if len(a.Standings) < 2 {
		return a
	}
	a.Tie = a.Standings[1].Rank == 1 || a.Rounds < minRounds
	if lead, ok := pairedRatio(byName[a.Standings[0].Cell], byName[a.Standings[1].Cell]); ok {
		a.Lead = &lead
	}
	if paired && a.Rounds >= holdsMinRounds {
		a.Holds = holding(a.Standings, byName)
	}
	return a
}

// roundRate is one complete round of a cell: its number and cycles/s.
type roundRate struct {
	Round int
	Rate  float64
}

// ratesOf are runs' rounds as roundRates.
func ratesOf(rs []schema.Run) []roundRate {
	out := make([]roundRate, len(rs))
	for i, r := range rs {
		out[i] = roundRate{r.Repeat, r.Throughput.CyclesPerS}
	}
	return out
}

// pairedRatio is a's cycles/s over b's in each round both completed
// (measured back to back on the same machine state, so what moved the
// whole round cancels): the median ratio and its interval. False when no
// round pairs.
func pairedRatio(a, b []roundRate) (stats.MedianCI, bool) {
	var ratios []float64
	for _, x := range a {
		for _, y := range b {
			if x.Round == y.Round && y.Rate > 0 {
				ratios = append(ratios, x.Rate/y.Rate)
			}
		}
	}
	if len(ratios) == 0 {
		return stats.MedianCI{}, false
	}
	return stats.MedianInterval(ratios, stats.Confidence), true
}

// rankPaired ranks standings by paired rounds: cells in order of their
// median share of each round's median cell, each rank led by its best
// cell; the next cell shares that rank unless, round by round, some cell
// of the rank ran more than tieWithin faster with the interval's
// confidence (the paired ratio's interval lies wholly above
// 1 + tieWithin), and then it leads a rank of its own. Pairing cancels
// what moved the machine between rounds, which unpaired intervals carry,
// so the ranks hold on a rerun; a lead under tieWithin is called a tie
// even when it is consistent, because runs minutes apart differ by that
// much. False, with st untouched, when some cell has fewer than minRounds
// rounds paired with the cell it is judged against.
func rankPaired(st []Standing, rounds map[string][]roundRate) bool {
	// The order: each cell's median share of its round's median cell, so a
	// round the whole machine ran slow in moves no cell ahead of another.
	byRound := map[int][]float64{}
	for _, rs := range rounds {
		for _, r := range rs {
			byRound[r.Round] = append(byRound[r.Round], r.Rate)
		}
	}
	ref := map[int]float64{}
	for k, xs := range byRound {
		ref[k] = stats.Median(xs)
	}
	// Ties of the median share (the round's median cell has a share of
	// exactly 1) go by the geometric mean of the shares, then by name:
	// neither moves with a round's speed either.
	score, geo := map[string]float64{}, map[string]float64{}
	for name, rs := range rounds {
		var shares []float64
		logs := 0.0
		for _, r := range rs {
			if ref[r.Round] > 0 && r.Rate > 0 {
				share := r.Rate / ref[r.Round]
				shares = append(shares, share)
				logs += math.Log(share)
			}
		}
		score[name] = stats.Median(shares)
		geo[name] = logs / float64(max(1, len(shares)))
	}
	order := slices.Clone(st)
	slices.SortStableFunc(order, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(score[b.Cell], score[a.Cell]), cmp.Compare(geo[b.Cell], geo[a.Cell]), cmp.Compare(a.Cell, b.Cell))
	})
	leader := 0
	for i := 1; i < len(order); i++ {
		// Against every cell of the current rank, not only its best: a
		// co-leader is a cell no leader is shown to beat, and the best is
		// not always the one whose rounds say so most surely.
		var behind, apart *stats.MedianCI
		for j := leader; j < i; j++ {
			r, ok := pairedRatio(rounds[order[j].Cell], rounds[order[i].Cell])
			if !ok || r.N < minRounds {
				return false
			}
			if j == leader {
				behind = &r
			}
			if r.Lo > 1+tieWithin && (apart == nil || r.Lo > apart.Lo) {
				apart = &r
			}
		}
		if apart != nil {
			leader, behind = i, apart
		}
		order[i].Rank, order[i].Behind = leader+1, behind
	}
	order[0].Rank = 1
	for i := range order {
		order[i].Tied = i > 0 && order[i].Rank == order[i-1].Rank || i+1 < len(order) && order[i+1].Rank == order[i].Rank
	}
	copy(st, order)
	return true
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
