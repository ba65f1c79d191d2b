// Command ratios turns a `lockbench compare --repeat N --json` file into the
// ratio tables the docs show, and checks that a rerun reproduces them.
//
//	go run ./scripts/ratios --ref sequential compare.json
//	go run ./scripts/ratios --ref sequential first.json rerun.json
//	go run ./scripts/ratios --ref sequential one.json,two.json rerun.json
//
// Within each group of cells that were measured together (one workload at
// one added round trip), every cell's cycles/s is divided by the reference
// cell's (the one whose name contains --ref) measured in the same round, so
// each round gives one paired ratio. A cell's row shows the median of its
// rounds' ratios and their range, lowest to highest. With exchangeable
// rounds, the median of a rerun with as many rounds lands outside that
// range rarely (with 10 rounds on each side, about 1 % of the time each
// side), so the range is the interval a reader can check a rerun against.
//
// With a second file, every ratio of the rerun is checked against the
// first file's ranges, and the count inside is printed; the exit status is
// 1 when one falls outside. A comma-separated list in place of a file
// pools the runs' rounds (renumbered one run after the other) into one
// table: more rounds, wider ranges that a rerun's medians rarely leave.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

// group is the cells measured together: one workload at one distance.
type group struct {
	workload string
	rttUS    float64
}

// cell is one cell's rounds: cycles/s by round, and its ratios to the
// group's reference in the same rounds.
type cell struct {
	name   string
	rate   map[int]float64
	ratios []float64
}

// table is one compare file's cells by group, in the order first seen.
type table struct {
	ref    string
	groups []group
	cells  map[group][]*cell
}

func main() {
	ref := flag.String("ref", "sequential", "substring naming the reference cell of each group")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: ratios [--ref NAME] compare.json [rerun.json]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		flag.Usage()
		os.Exit(2)
	}
	first, err := load(flag.Arg(0), *ref)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(2)
	}
	if flag.NArg() == 1 {
		first.print(os.Stdout, nil)
		return
	}
	rerun, err := load(flag.Arg(1), *ref)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(2)
	}
	if inside, total := first.print(os.Stdout, rerun); inside < total {
		os.Exit(1)
	}
}

// load reads paths (comma-separated, their rounds pooled) and pairs every
// cell's rounds with its group's reference.
func load(paths, ref string) (*table, error) {
	var runs []schema.Run
	offset := 0
	for _, path := range strings.Split(paths, ",") {
		s, err := schema.ReadSummary(path)
		if err != nil {
			return nil, err
		}
		last := 0
		for _, r := range s.Runs {
			r.Repeat += offset
			last = max(last, r.Repeat)
			runs = append(runs, r)
		}
		offset = last
	}
	path := paths
	t := &table{ref: ref, cells: map[group][]*cell{}}
	byName := map[group]map[string]*cell{}
	for _, r := range runs {
		g := group{r.Workload, r.AddedRTTUS}
		if byName[g] == nil {
			byName[g] = map[string]*cell{}
			t.groups = append(t.groups, g)
		}
		c := byName[g][r.Name]
		if c == nil {
			c = &cell{name: r.Name, rate: map[int]float64{}}
			byName[g][r.Name] = c
			t.cells[g] = append(t.cells[g], c)
		}
		c.rate[r.Repeat] = r.Throughput.CyclesPerS
	}
	for _, g := range t.groups {
		var base *cell
		for _, c := range t.cells[g] {
			if strings.Contains(c.name, ref) {
				if base != nil {
					return nil, fmt.Errorf("%s: %q names both %s and %s", path, ref, base.name, c.name)
				}
				base = c
			}
		}
		if base == nil {
			return nil, fmt.Errorf("%s: no cell of %s names %q", path, g, ref)
		}
		for _, c := range t.cells[g] {
			for round, v := range c.rate {
				if b := base.rate[round]; b > 0 {
					c.ratios = append(c.ratios, v/b)
				}
			}
		}
		slices.SortFunc(t.cells[g], func(a, b *cell) int { return cmp.Compare(median(b.ratios), median(a.ratios)) })
	}
	return t, nil
}

func (g group) String() string {
	if g.rttUS == 0 {
		return g.workload
	}
	return fmt.Sprintf("%s +%gµs", g.workload, g.rttUS)
}

// print writes t's table; with a rerun, each row also shows the rerun's
// median ratio and whether it lies inside t's range. It returns how many
// did, of how many were checked.
func (t *table) print(w *os.File, rerun *table) (inside, total int) {
	for _, g := range t.groups {
		fmt.Fprintf(w, "%s\n", g)
		var again map[string]*cell
		if rerun != nil {
			again = map[string]*cell{}
			for _, c := range rerun.cells[g] {
				again[c.name] = c
			}
		}
		for _, c := range t.cells[g] {
			rates := make([]float64, 0, len(c.rate))
			for _, v := range c.rate {
				rates = append(rates, v)
			}
			lo, hi := slices.Min(c.ratios), slices.Max(c.ratios)
			fmt.Fprintf(w, "  %-48s %9.0f/s  %6.3f× [%.3f–%.3f] (%d rounds)", c.name, median(rates), median(c.ratios), lo, hi, len(c.ratios))
			if r := again[c.name]; r != nil && len(r.ratios) > 0 && !strings.Contains(c.name, t.ref) {
				m := median(r.ratios)
				total++
				verdict := "outside"
				if m >= lo && m <= hi {
					inside++
					verdict = "inside"
				}
				fmt.Fprintf(w, "  rerun %6.3f× %s", m, verdict)
			}
			fmt.Fprintln(w)
		}
	}
	if rerun != nil {
		fmt.Fprintf(w, "rerun: %d of %d ratios inside the first run's range\n", inside, total)
	}
	return inside, total
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return stats.Median(xs)
}
