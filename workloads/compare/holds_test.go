package compare

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestHolds: resampled rounds give a clear answer every time and an answer
// at the margin only some of the time, naming the other first rank;
// rounds are drawn whole, so a steady lead survives any drift of the
// machine between rounds; the same rounds always give the same share.
func TestHolds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	// cell is n rounds at base cycles/s times each round's drift, with
	// noise of ±spread/2.
	cell := func(name string, base, spread float64, drift []float64) []schema.Run {
		xs := make([]float64, len(drift))
		for i, d := range drift {
			xs[i] = base * d * (1 + spread*(rng.Float64()-0.5))
		}
		return rounds(name, xs...)
	}
	steady := make([]float64, 20)
	moving := make([]float64, 20)
	for i := range steady {
		steady[i], moving[i] = 1, 0.3+1.4*rng.Float64()
	}
	for _, tc := range []struct {
		name     string
		runs     []schema.Run
		min, max float64 // the share's bounds
		others   bool    // some resample gave another first rank
	}{
		{"a lead far past the margin", append(cell("a", 2000, 0.1, steady), cell("b", 1000, 0.1, steady)...), 1, 1, false},
		{"a tie well inside it", append(cell("a", 1000, 0.1, steady), cell("b", 1000, 0.1, steady)...), 1, 1, false},
		{"a steady lead while the machine moves round by round", append(cell("a", 2000, 0, moving), cell("b", 1000, 0, moving)...), 1, 1, false},
		// a's paired ratios to b run evenly from 1.0 to 1.4: the lower end
		// of their interval (the sixth smallest of 20) is 1.105, just past
		// the margin, and a resample's as often below it as above.
		{"a lead at the margin", append(rounds("a", ramp(1000, 1400, 20)...), cell("b", 1000, 0, steady)...), 0.2, 0.8, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := Answers(tc.runs)[0]
			h := a.Holds
			if h == nil {
				t.Fatalf("no Holds: %+v", a)
			}
			if h.Resamples != holdsResamples || h.Share < tc.min || h.Share > tc.max {
				t.Errorf("share %.3f of %d, want %g–%g", h.Share, h.Resamples, tc.min, tc.max)
			}
			if (len(h.Else) > 0) != tc.others || (h.ElseShare > 0) != tc.others || h.Share+h.ElseShare > 1 {
				t.Errorf("else %v at %.3f (share %.3f), want other first ranks: %v", h.Else, h.ElseShare, h.Share, tc.others)
			}
			if again := Answers(tc.runs)[0].Holds; !reflect.DeepEqual(again, h) {
				t.Errorf("the same rounds gave %+v, then %+v", h, again)
			}
		})
	}
}

// TestHoldsNeedsRounds: five rounds get no share, six do.
func TestHoldsNeedsRounds(t *testing.T) {
	for n, want := range map[int]bool{holdsMinRounds - 1: false, holdsMinRounds: true} {
		a := Answers(append(rounds("a", ramp(2000, 2100, n)...), rounds("b", ramp(1000, 1050, n)...)...))[0]
		if (a.Holds != nil) != want {
			t.Errorf("%d rounds: holds %+v, want one: %v", n, a.Holds, want)
		}
	}
}

// TestHoldsText: the answer line says how often its rounds give it, and
// below holdsFirm the other answer a rerun would most likely give.
func TestHoldsText(t *testing.T) {
	a := Answer{Workload: "contended", Rounds: 20, Standings: []Standing{
		{Cell: "redlock/a/contended", Rank: 1}, {Cell: "redlock/b/contended", Rank: 2}}}
	for _, tc := range []struct {
		name string
		h    *Holds
		want []string
		not  []string
	}{
		{"firm", &Holds{Share: 0.97, Resamples: 1000, Else: []string{"redlock/a/contended", "redlock/b/contended"}, ElseShare: 0.03},
			[]string{"is fastest", "resampling its rounds 1000 times gives this answer 97 % of the time"}, []string{"else", "rerun may"}},
		{"at the margin", &Holds{Share: 0.61, Resamples: 1000, Else: []string{"redlock/a/contended", "redlock/b/contended"}, ElseShare: 0.39},
			[]string{"61 % of the time, else redlock/a/contended, redlock/b/contended tied (39 %): a rerun may say that"}, nil},
		{"the other is one cell", &Holds{Share: 0.58, Resamples: 1000, Else: []string{"redlock/b/contended"}, ElseShare: 0.42},
			[]string{"else redlock/b/contended alone (42 %)"}, nil},
		{"unpaired or too few rounds", nil, []string{"is fastest"}, []string{"resampling"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a.Holds = tc.h
			line := answerLine(a)
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("%q lacks %q", line, w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(line, n) {
					t.Errorf("%q has %q", line, n)
				}
			}
		})
	}
}

// ramp is n values evenly from lo to hi, shuffled the same way each time
// (the rounds of a cell are not in order of speed).
func ramp(lo, hi float64, n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	rand.New(rand.NewPCG(9, 10)).Shuffle(n, func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	return xs
}
