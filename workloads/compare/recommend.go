package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Recommend is an answer as one plain line a person can act on: the
// strategy to use (and which clients tie on it), then how far behind the
// other strategies ran, each as the range of its cells' median cycles/s
// against the best cell's ("auto 1.4–1.9× behind"). Strategies whose
// ranges overlap are named together. It says when the rounds were too few
// to recommend, and when a rerun may well recommend otherwise.
func Recommend(a Answer) string {
	if len(a.Standings) < 2 {
		return "one cell, nothing to choose"
	}
	if a.Rounds < minRounds {
		return fmt.Sprintf("none: %d round(s) per cell cannot tell the cells apart", a.Rounds)
	}
	best := a.Standings[0].Rate.Median
	// The leaders' strategies, in rank order, each with its leading clients.
	var use []string
	clients := map[string][]string{}
	for _, s := range a.Standings {
		if s.Rank != 1 {
			continue
		}
		st := strategyOf(s)
		if !slices.Contains(use, st) {
			use = append(use, st)
		}
		if s.Client != "" {
			clients[st] = append(clients[st], s.Client)
		}
	}
	var parts []string
	for _, st := range use {
		p := st
		switch cs := clients[st]; {
		case len(cs) == 1 && len(clientsOf(a)) > 1:
			p = cs[0] + " " + st
		case len(cs) > 1:
			p = fmt.Sprintf("%s (%s tie)", st, strings.Join(cs, " and "))
		}
		parts = append(parts, p)
	}
	line := "use " + strings.Join(parts, " or ")
	// The others: each strategy's range behind the best, overlapping
	// ranges merged, nearest first.
	type behind struct {
		names  []string
		lo, hi float64
	}
	var groups []behind
	seen := map[string]int{}
	for _, s := range a.Standings {
		st := strategyOf(s)
		if s.Rank == 1 || s.Rate.Median <= 0 {
			continue
		}
		if slices.Contains(use, st) { // a leading strategy, another client
			st = strings.TrimSpace(s.Client + " " + st)
		}
		f := best / s.Rate.Median
		if i, ok := seen[st]; ok {
			groups[i].lo, groups[i].hi = math.Min(groups[i].lo, f), math.Max(groups[i].hi, f)
			continue
		}
		seen[st] = len(groups)
		groups = append(groups, behind{names: []string{st}, lo: f, hi: f})
	}
	slices.SortStableFunc(groups, func(x, y behind) int { return cmpFloat(x.lo, y.lo) })
	var merged []behind
	for _, g := range groups {
		if n := len(merged); n > 0 && g.lo <= merged[n-1].hi*(1+tieWithin) {
			merged[n-1].names = append(merged[n-1].names, g.names...)
			merged[n-1].hi = math.Max(merged[n-1].hi, g.hi)
			continue
		}
		merged = append(merged, g)
	}
	for _, g := range merged {
		line += fmt.Sprintf("; %s %s behind", andList(g.names), factorRange(g.lo, g.hi))
	}
	if a.Holds != nil && a.Holds.Share < holdsFirm {
		line += fmt.Sprintf(" (its rounds give this first place %.0f %% of the time: a rerun may differ)", 100*a.Holds.Share)
	}
	return line
}

// strategyOf is what a cell is recommended as: its strategy (mux) for
// Redlock cells, else its backend and mode (a baseline row).
func strategyOf(s Standing) string {
	if s.Mux != "" {
		return s.Mux
	}
	name, _, _ := strings.Cut(s.Cell, "/")
	return name
}

// clientsOf are the client libraries among a's cells.
func clientsOf(a Answer) []string {
	var cs []string
	for _, s := range a.Standings {
		if s.Client != "" && !slices.Contains(cs, s.Client) {
			cs = append(cs, s.Client)
		}
	}
	return cs
}

// factorRange is "1.4×" or "1.4–1.9×" (whole numbers from 10×).
func factorRange(lo, hi float64) string {
	f := func(x float64) string {
		if x >= 10 {
			return fmt.Sprintf("%.0f", x)
		}
		return fmt.Sprintf("%.1f", x)
	}
	if f(lo) == f(hi) {
		return f(lo) + "×"
	}
	return f(lo) + "–" + f(hi) + "×"
}

// andList is "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
