package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// holdsResamples is how many resamples of the rounds holding ranks: the
// share it gives is then within ±3 points of its limit (95 %).
const holdsResamples = 1000

// holdsMinRounds is the fewest rounds holding resamples: 3 rounds have
// 10 distinct draws, 5 have 126, too few for a share to mean much; from
// 6 (462) a 95 % interval of the median exists too.
const holdsMinRounds = 6

// holdsFirm is the share under which an answer line names the other first
// rank the resamples gave: a rerun that differs most likely says that.
const holdsFirm = 0.9

// Holds is how firmly the rounds carry an answer: the workload's rounds,
// drawn again with replacement (whole rounds, so each cell stays paired
// with the others of its round), ranked again by the same rule, and the
// share of those resamples whose first rank (the leading cells, alone or
// tied) is the answer's. It asks "would these rounds, a little
// differently drawn, say the same?", which a rerun asks of new rounds: an
// answer at 60 % is one a rerun often contradicts, at 99 % one it seldom
// does. It sees only this run's rounds, centred on this run's answer, and
// not what moves a whole run (the host's state from one run to the next):
// an answer most reruns would not give reads higher than their agreement
// with it (docs/answers.md has the measurement).
type Holds struct {
	Share     float64 `json:"share"`
	Resamples int     `json:"resamples"`
	// Else is the first rank the other resamples gave most often and
	// ElseShare its share (absent when every resample agreed).
	Else      []string `json:"else,omitempty"`
	ElseShare float64  `json:"else_share,omitempty"`
}

// holding resamples the rounds of ranked standings st (ranked by
// rankPaired over rounds) holdsResamples times. The draws are seeded
// alike every time, so the same rounds always give the same share. Nil
// when a resample cannot be paired (a cell with too few rounds).
func holding(st []Standing, rounds map[string][]roundRate) *Holds {
	numbers := map[int]bool{}
	for _, rs := range rounds {
		for _, r := range rs {
			numbers[r.Round] = true
		}
	}
	all := make([]int, 0, len(numbers))
	for n := range numbers {
		all = append(all, n)
	}
	slices.Sort(all)
	// by[cell][round number] is the cell's rate in that round, 0 if it
	// has none.
	by := map[string]map[int]float64{}
	for cell, rs := range rounds {
		by[cell] = map[int]float64{}
		for _, r := range rs {
			by[cell][r.Round] = r.Rate
		}
	}
	answer := firstRank(st)
	counts := map[string]int{}
	rng := rand.New(rand.NewPCG(1, 2))
	draw := make([]int, len(all))
	again := make(map[string][]roundRate, len(rounds))
	redo := make([]Standing, len(st))
	for range holdsResamples {
		for i := range draw {
			draw[i] = all[rng.IntN(len(all))]
		}
		for cell, rates := range by {
			rs := again[cell][:0]
			for i, n := range draw {
				if x, ok := rates[n]; ok {
					rs = append(rs, roundRate{Round: i + 1, Rate: x})
				}
			}
			again[cell] = rs
		}
		for i, s := range st {
			redo[i] = Standing{Cell: s.Cell}
		}
		if !rankPaired(redo, again) {
			return nil
		}
		counts[firstRank(redo)]++
	}
	h := &Holds{Share: float64(counts[answer]) / holdsResamples, Resamples: holdsResamples}
	other, best := "", 0
	for k, c := range counts {
		if k != answer && (c > best || c == best && k < other) {
			other, best = k, c
		}
	}
	if best > 0 {
		h.Else, h.ElseShare = strings.Split(other, "\n"), float64(best)/holdsResamples
	}
	return h
}

// firstRank is the cells of rank 1 in st, sorted and joined by newlines:
// what an answer line names as fastest or tied fastest.
func firstRank(st []Standing) string {
	var cells []string
	for _, s := range st {
		if s.Rank == 1 {
			cells = append(cells, s.Cell)
		}
	}
	slices.Sort(cells)
	return strings.Join(cells, "\n")
}

// String is what an answer line says of h: the share, and below holdsFirm
// the other first rank a rerun would most likely give.
func (h Holds) String() string {
	s := fmt.Sprintf("resampling its rounds %d times gives this answer %.0f %% of the time", h.Resamples, 100*h.Share)
	if h.Share >= holdsFirm || len(h.Else) == 0 {
		return s
	}
	first := named(h.Else) + " alone"
	if len(h.Else) > 1 {
		first = named(h.Else) + " tied"
	}
	s += fmt.Sprintf(", else %s (%.0f %%)", first, 100*h.ElseShare)
	if rest := 1 - h.Share - h.ElseShare; rest >= 0.005 {
		s += fmt.Sprintf(", else other first places (%.0f %% in all)", 100*rest)
	}
	return s + ": a rerun may say that"
}
