package compare

import (
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/stats"
)

// TestRecommend: one line naming what to use (and the clients that tie on
// it), then every other strategy's distance behind the best cell, close
// ones together; a cell of a leading strategy that does not lead is named
// with its client; too few rounds, or a first place the resamples often
// move, are said.
func TestRecommend(t *testing.T) {
	cell := func(client, mux string, rank int, median float64) Standing {
		return Standing{Cell: "redlock/" + client + "/" + mux + "/uncontended", Client: client, Mux: mux, Rank: rank,
			Rate: stats.MedianCI{N: 6, Median: median}}
	}
	matrix := []Standing{
		cell("rueidis", "pipeline", 1, 24000), cell("goredis", "pipeline", 1, 22000),
		cell("rueidis", "auto", 3, 17000), cell("goredis", "auto", 3, 16000),
		cell("rueidis", "sequential", 5, 4800), cell("rueidis", "fanout", 5, 4600),
		cell("goredis", "sequential", 5, 4500), cell("goredis", "fanout", 5, 4100),
	}
	for _, tc := range []struct {
		name string
		a    Answer
		want []string
		not  []string
	}{
		{"tie on a strategy", Answer{Rounds: 20, Standings: matrix}, []string{
			"use pipeline (rueidis and goredis tie)", "; auto 1.4–1.5× behind", "; sequential and fanout 5.0–5.9× behind"}, []string{"rerun"}},
		{"one client leads", Answer{Rounds: 20, Standings: []Standing{cell("rueidis", "pipeline", 1, 1000), cell("goredis", "pipeline", 2, 500), cell("goredis", "auto", 3, 100)}},
			[]string{"use rueidis pipeline", "; goredis pipeline 2.0× behind", "; auto 10× behind"}, nil},
		{"two strategies lead", Answer{Rounds: 20, Standings: []Standing{cell("rueidis", "pipeline", 1, 1000), cell("rueidis", "auto", 1, 950), cell("goredis", "auto", 3, 200)}},
			[]string{"use rueidis pipeline or rueidis auto", "; goredis auto 5.0× behind"}, nil},
		{"a baseline row", Answer{Rounds: 20, Standings: []Standing{cell("rueidis", "pipeline", 1, 1000), {Cell: "etcd/client/uncontended", Rank: 2, Rate: stats.MedianCI{Median: 80}}}},
			[]string{"use pipeline", "; etcd 12× behind"}, nil},
		{"loose first place", Answer{Rounds: 20, Standings: matrix, Holds: &Holds{Share: 0.6}}, []string{"60 % of the time: a rerun may differ"}, nil},
		{"too few rounds", Answer{Rounds: 2, Standings: matrix}, []string{"none: 2 round(s)"}, []string{"use"}},
	} {
		got := Recommend(tc.a)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: %q says %q", tc.name, got, n)
			}
		}
	}
}

// TestHoldsSharesAddUp: what a loose answer line says of the resamples
// adds up to all of them.
func TestHoldsSharesAddUp(t *testing.T) {
	h := Holds{Share: 0.77, Resamples: 1000, Else: []string{"b"}, ElseShare: 0.15}
	if s := h.String(); !strings.Contains(s, "77 %") || !strings.Contains(s, "b alone (15 %)") || !strings.Contains(s, "other first places (8 % in all)") {
		t.Errorf("%q: want 77 + 15 + 8 = 100 %%", s)
	}
	h.ElseShare = 0.23
	if s := h.String(); strings.Contains(s, "other first places") {
		t.Errorf("%q: the two shares are all of them", s)
	}
}
