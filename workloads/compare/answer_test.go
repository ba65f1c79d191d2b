package compare

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// standing is a cell with an interval [lo, hi] and median m.
func standing(cell string, lo, m, hi float64) Standing {
	return Standing{Cell: cell, Rate: stats.MedianCI{N: 5, Lo: lo, Median: m, Hi: hi, Level: 0.9375}}
}

// TestRank: cells whose intervals overlap share a rank, so does a chain
// of overlaps; separated groups rank as competition ranks (1=, 1=, 3).
func TestRank(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []Standing
		want string
	}{
		{"apart", []Standing{standing("b", 5, 5.5, 6), standing("a", 10, 11, 12)}, "1 a, 2 b"},
		{"overlap", []Standing{standing("b", 9, 10, 11), standing("a", 10, 11, 12)}, "1= a, 1= b"},
		{"a chain ties its ends", []Standing{standing("a", 10, 11, 12), standing("b", 9, 10, 11), standing("c", 8, 8.5, 9.5)}, "1= a, 1= b, 1= c"},
		{"tie, then apart", []Standing{standing("c", 1, 2, 3), standing("a", 10, 11, 12), standing("b", 9, 10, 11)}, "1= a, 1= b, 3 c"},
		{"wide interval holds a lower median", []Standing{standing("a", 4, 11, 12), standing("b", 8, 9, 10), standing("c", 1, 2, 3)}, "1= a, 1= b, 3 c"},
		{"points (one round): equal ones tie", []Standing{standing("a", 5, 5, 5), standing("b", 5, 5, 5), standing("c", 4, 4, 4)}, "1= a, 1= b, 3 c"},
		{"medians within the tie margin tie apart", []Standing{standing("a", 10.4, 10.5, 10.6), standing("b", 9.7, 9.8, 9.9)}, "1= a, 1= b"},
		{"medians beyond the tie margin rank apart", []Standing{standing("a", 10.4, 10.5, 10.6), standing("b", 9.3, 9.4, 9.5)}, "1 a, 2 b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rankStandings(tc.in)
			var got []string
			for _, s := range tc.in {
				r := fmt.Sprint(s.Rank)
				if s.Tied {
					r += "="
				}
				got = append(got, r+" "+s.Cell)
			}
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("%s, want %s", g, tc.want)
			}
		})
	}
}

// TestRankInvariants: over many random intervals, two cells whose
// intervals overlap, or whose medians lie within tieWithin, have the same
// rank; of two cells with different ranks, the better one's interval lies
// wholly above the other's and its median more than tieWithin above; ranks
// never decrease down the list.
func TestRankInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		st := make([]Standing, 2+rng.IntN(8))
		for i := range st {
			lo := rng.Float64() * 100
			hi := lo + rng.Float64()*20
			st[i] = standing(fmt.Sprint(i), lo, lo+(hi-lo)*rng.Float64(), hi)
		}
		rankStandings(st)
		for i, a := range st {
			if i > 0 && a.Rank < st[i-1].Rank {
				t.Fatalf("trial %d: rank %d after %d", trial, a.Rank, st[i-1].Rank)
			}
			for _, b := range st[i+1:] {
				if a.Rate.Overlaps(b.Rate) && a.Rank != b.Rank {
					t.Fatalf("trial %d: %+v and %+v overlap but rank %d and %d", trial, a.Rate, b.Rate, a.Rank, b.Rank)
				}
				if within(a.Rate.Median, b.Rate.Median, tieWithin*0.99) && a.Rank != b.Rank {
					t.Fatalf("trial %d: medians %g and %g within %g but rank %d and %d", trial, a.Rate.Median, b.Rate.Median, tieWithin, a.Rank, b.Rank)
				}
				if a.Rank != b.Rank && !(a.Rate.Lo > b.Rate.Hi && a.Rate.Median > b.Rate.Median*(1+tieWithin)) {
					t.Fatalf("trial %d: rank %d %+v is not above rank %d %+v", trial, a.Rank, a.Rate, b.Rank, b.Rate)
				}
			}
		}
	}
}

// within: x and y differ by less than the fraction f of the smaller.
func within(x, y, f float64) bool { return max(x, y) < min(x, y)*(1+f) }

// rounds are a cell's runs, one per round, with the given cycles/s.
func rounds(name string, cps ...float64) []schema.Run {
	out := make([]schema.Run, len(cps))
	for i, c := range cps {
		out[i] = schema.Run{Name: "redlock/" + name + "/uncontended", Workload: "uncontended", Masters: 5, Repeat: i + 1,
			Throughput: schema.Throughput{CyclesPerS: c}}
	}
	return out
}

// TestAnswers: the answer line names the top cell and its paired lead when
// its interval stands alone, says indistinguishable when the top cells
// tie, and gives no answer below MinRounds.
func TestAnswers(t *testing.T) {
	// Rounds move together (the machine's state), b a steady 10 % behind a:
	// the intervals overlap, the paired ratios do not move.
	drift := []float64{1000, 1400, 800, 1200, 1100, 900}
	scaled := func(f float64) []float64 {
		out := make([]float64, len(drift))
		for i, d := range drift {
			out[i] = f * d
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		runs   [][]schema.Run
		tie    bool
		answer []string // substrings of the answer line
	}{
		{"a clear leader", [][]schema.Run{rounds("b", 500, 520, 480, 510, 490), rounds("a", 1000, 1010, 990, 1020, 980)}, false,
			[]string{"redlock/a/uncontended is fastest: 2.00× redlock/b/uncontended (1.94–2.06×, paired by round)"}},
		{"overlapping leaders tie", [][]schema.Run{rounds("a", 1000, 900, 1100, 950, 1050), rounds("b", 1020, 880, 1090, 1000, 940), rounds("c", 10, 11, 9, 10, 10)}, true,
			[]string{"indistinguishable at this budget: redlock/a/uncontended, redlock/b/uncontended (no lead over 10 % shown, paired by round)"}},
		{"apart but within the tie margin", [][]schema.Run{rounds("a", 1000, 1001, 1002, 1003, 1004), rounds("b", 950, 951, 952, 953, 954)}, true,
			[]string{"indistinguishable at this budget: redlock/a/uncontended, redlock/b/uncontended"}},
		{"apart beyond the tie margin", [][]schema.Run{rounds("a", 1000, 1001, 1002, 1003, 1004), rounds("b", 880, 881, 882, 883, 884)}, false,
			[]string{"redlock/a/uncontended is fastest: 1.14×"}},
		{"a steady lead over the margin, paired by round, though the intervals overlap", [][]schema.Run{rounds("a", drift...), rounds("b", scaled(0.85)...)}, false,
			[]string{"redlock/a/uncontended is fastest: 1.18× redlock/b/uncontended (1.18–1.18×"}},
		{"a steady lead under the margin: a tie the rounds lean in", [][]schema.Run{rounds("a", drift...), rounds("b", scaled(0.95)...)}, true,
			[]string{"indistinguishable", "1.05× redlock/b/uncontended (1.05–1.05×", "the rounds lean to redlock/a/uncontended"}},
		{"a co-leader no leader is shown to beat: the rank's best is too noisy to separate c, b is not",
			[][]schema.Run{rounds("a", 1300, 700, 1250, 750, 1200, 1050), rounds("b", 1000, 1001, 1002, 1003, 1004, 1005),
				rounds("c", 800, 801, 802, 803, 804, 805)}, true,
			[]string{"indistinguishable at this budget: redlock/a/uncontended, redlock/b/uncontended (no lead"}},
		{"too few rounds", [][]schema.Run{rounds("a", 1000, 1010), rounds("b", 10, 11)}, true,
			[]string{"none at 2 round(s) per cell: an interval needs --repeat 3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []schema.Run
			for _, r := range tc.runs {
				runs = append(runs, r...)
			}
			as := Answers(runs)
			if len(as) != 1 {
				t.Fatalf("%d answers, want 1", len(as))
			}
			a := as[0]
			if a.Tie != tc.tie {
				t.Errorf("tie %v, want %v: %+v", a.Tie, tc.tie, a.Standings)
			}
			if tied := a.Standings[1].Rank == 1; tied && !a.Tie {
				t.Errorf("leaders share rank 1 but the answer is no tie")
			}
			line := answerLine(a)
			for _, want := range tc.answer {
				if !strings.Contains(line, want) {
					t.Errorf("answer %q\nwant it to say %q", line, want)
				}
			}
			if strings.Contains(line, "indistinguishable") != (a.Tie && a.Rounds >= minRounds) {
				t.Errorf("answer %q disagrees with tie %v", line, a.Tie)
			}
		})
	}
}

// TestRankPairedInvariants: over many random compares, ranks never
// decrease down the list; a cell that opens a rank is more than tieWithin
// behind the best of the rank above, with the interval's confidence, and a
// cell that shares a rank is not shown that far behind its best; and the
// ranks do not move when every cell of a round is scaled by one factor
// (the machine faster or slower that round), which unpaired intervals
// would feel.
func TestRankPairedInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	trials := 500
	if testing.Short() {
		trials = 100
	}
	for trial := range trials {
		n := 3 + rng.IntN(8)
		cells := make([][]float64, 2+rng.IntN(6))
		for c := range cells {
			base := 100 + rng.Float64()*100
			cells[c] = make([]float64, n)
			for r := range n {
				cells[c][r] = base * (1 + 0.2*(rng.Float64()-0.5))
			}
		}
		answer := func(drift []float64) Answer {
			var runs []schema.Run
			for c, xs := range cells {
				ys := make([]float64, n)
				for r, x := range xs {
					ys[r] = x * drift[r]
				}
				runs = append(runs, rounds(fmt.Sprint(c), ys...)...)
			}
			return Answers(runs)[0]
		}
		flat := make([]float64, n)
		moved := make([]float64, n)
		for r := range n {
			flat[r], moved[r] = 1, 0.3+1.4*rng.Float64()
		}
		a, b := answer(flat), answer(moved)
		for i, s := range a.Standings {
			if i > 0 && s.Rank < a.Standings[i-1].Rank {
				t.Fatalf("trial %d: rank %d after %d", trial, s.Rank, a.Standings[i-1].Rank)
			}
			if i == 0 {
				continue
			}
			if s.Behind == nil {
				t.Fatalf("trial %d: %s has no paired ratio", trial, s.Cell)
			}
			opens := s.Rank == i+1
			if opens != (s.Behind.Lo > 1+tieWithin) {
				t.Fatalf("trial %d: %s rank %d (place %d) with paired ratio %+v", trial, s.Cell, s.Rank, i+1, *s.Behind)
			}
			// No cell of a rank is shown to beat another of it by more
			// than the margin.
			for _, o := range a.Standings[:i] {
				if o.Rank != s.Rank {
					continue
				}
				if r, _ := pairedRatio(ratesOf(byRound(cells, o.Cell, flat)), ratesOf(byRound(cells, s.Cell, flat))); r.Lo > 1+tieWithin {
					t.Fatalf("trial %d: %s shares rank %d with %s, which leads it by %+v", trial, s.Cell, s.Rank, o.Cell, r)
				}
			}
		}
		for i := range a.Standings {
			if a.Standings[i].Cell != b.Standings[i].Cell || a.Standings[i].Rank != b.Standings[i].Rank {
				t.Fatalf("trial %d: ranks moved with the rounds' drift:\n%+v\n%+v", trial, a.Standings, b.Standings)
			}
		}
	}
}

// byRound is cell name's rounds in cells (named by their index), each
// scaled by its round's drift.
func byRound(cells [][]float64, name string, drift []float64) []schema.Run {
	var c int
	fmt.Sscan(strings.Split(name, "/")[1], &c)
	ys := make([]float64, len(cells[c]))
	for r, x := range cells[c] {
		ys[r] = x * drift[r]
	}
	return rounds(name, ys...)
}

// TestAnswersGroups: one answer per workload and masters count, a
// baseline row beside the Redlock cells of its lab, a cut-short round is
// no sample, and rounds are paired by their number.
func TestAnswersGroups(t *testing.T) {
	a, b := rounds("a", 100, 200, 300), rounds("b", 50, 100, 150)
	cut := a[0]
	cut.Repeat, cut.Interrupted, cut.Throughput.CyclesPerS = 4, true, 1
	contended := rounds("a", 1, 2, 3)
	for i := range contended {
		contended[i].Workload, contended[i].Name = "contended", "redlock/a/contended"
	}
	etcd := rounds("x", 10, 20, 30)
	for i := range etcd {
		etcd[i].Name, etcd[i].Masters = "etcd/client/uncontended", 3 // its members, not the lab's masters
	}
	as := Answers(append(append(append(append(a, cut), b...), contended...), etcd...))
	if len(as) != 2 || as[0].Workload != "uncontended" || as[1].Workload != "contended" || len(as[0].Standings) != 3 {
		t.Fatalf("answers %+v, want uncontended (3 cells with the baseline) then contended", as)
	}
	seven := rounds("a", 1, 2, 3)
	for i := range seven {
		seven[i].Name += "/7m"
	}
	var five []schema.Run
	for _, r := range append(rounds("a", 1, 2, 3), etcd...) {
		r.Name += "/5m"
		five = append(five, r)
	}
	if by := Answers(append(five, seven...)); len(by) != 2 || by[0].Masters != 5 || len(by[0].Standings) != 2 || by[1].Masters != 7 ||
		!strings.HasPrefix(title(by[1]), "uncontended on 7 masters") {
		t.Errorf("by masters count: %+v", by)
	}
	u := as[0]
	if u.Rounds != 3 || u.Standings[0].Rate.N != 3 || u.Lead == nil || u.Lead.Median != 2 || u.Lead.Lo != 2 || u.Lead.Hi != 2 {
		t.Errorf("uncontended: %+v lead %+v; want 3 rounds each, a 2× b in every round", u, u.Lead)
	}
	if got := answerLine(as[1]); got != "one cell, nothing to compare" {
		t.Errorf("one cell: %q", got)
	}
}
