// Command gatecal measures lockbench gate's false-alarm and detection
// rates on this machine (scripts/gate-calibrate.sh runs it).
//
// It records real runs first, in interleaved rounds: each round runs the
// configuration under test twice (A) and two real slowdowns once each (an
// injected latency fault, fewer workers), in an order rotated from round to
// round. Then it makes the gate's decisions from those rounds as
// --until-decided makes them (paired rounds, the looks of gate.Looks, α
// split over them): each trial takes the rounds in a random order and, per
// round, a pair: the two A runs with their roles drawn at random (A/A), the
// second A run scaled by an injected effect (cycles/s down, client CPU µs
// per cycle up, by 5, 10 and 20 %), or an A run and the slowdown's run.
//
// Statistical assumptions: the recorded rounds are exchangeable (their
// order is shuffled), and within a round the two A runs are exchangeable,
// which is what an A/A comparison is; an injected effect is multiplicative
// and leaves the noise as it was. Trials resample one recording, so their
// verdicts are not independent: the printed binomial intervals understate
// the rates' uncertainty, and a longer or second recording is the check.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/results/stats"
)

func main() {
	bin := flag.String("lockbench", "lockbench", "lockbench binary")
	nRounds := flag.Int("rounds", gate.Looks[len(gate.Looks)-1], "recording rounds (pool A gets two runs a round, each slowdown one); fewer than the last look's end the trials early")
	trials := flag.Int("trials", 100, "gate decisions per row of the table")
	runArgs := flag.String("run", "--duration 1s --warmup 500ms --masters 3 --workers 20 --mux pipeline", "lockbench run flags of the configuration under test")
	workers := flag.Int("fewer-workers", 16, "workers of the fewer-workers slowdown")
	fault := flag.String("latency-fault", "latency:masters=1,2,3:ms=1:at=0s", "fault of the latency slowdown")
	dir := flag.String("dir", "", "keep the recorded summaries here (default: a temporary directory, removed)")
	from := flag.String("from", "", "decide from the rounds recorded in this --dir instead of recording")
	seed := flag.Uint64("seed", 1, "shuffle seed")
	flag.Parse()
	if *dir == "" {
		d, err := os.MkdirTemp("", "gatecal-")
		check(err)
		defer os.RemoveAll(d)
		*dir = d
	} else if *from == "" {
		check(os.MkdirAll(*dir, 0o755))
	}
	start := time.Now()
	load0 := loadavg()
	var rounds []round
	if *from != "" {
		rounds = load(*from)
	} else {
		rounds = record(*bin, *dir, *nRounds, *runArgs, *workers, *fault)
	}
	recorded := time.Since(start)
	if len(rounds) == 0 {
		fmt.Fprintln(os.Stderr, "gatecal: no complete round to decide from")
		os.Exit(1)
	}
	load1 := loadavg()
	pools := map[string][]*schema.Summary{}
	for _, r := range rounds {
		for v, ss := range r {
			pools[v] = append(pools[v], ss...)
		}
	}

	rng := rand.New(rand.NewPCG(*seed, 2))
	A := pools["A"]
	fmt.Printf("machine: %s, %d cpus, kernel %s; load average %s at start, %s after recording\n",
		A[0].Host.CPUModel, A[0].Host.CPUs, A[0].Host.Kernel, load0, load1)
	if *from != "" {
		fmt.Printf("(decided from the rounds recorded in %s)\n", *from)
	}
	fmt.Printf("recorded: %d complete rounds in %s: pool A %d runs, workers %d, latency %d; run flags: %s\n\n",
		len(rounds), recorded.Round(time.Second), len(A), len(pools["workers"]), len(pools["latency"]), *runArgs)
	noise(rounds)

	fmt.Printf("\n%-32s %7s %10s %13s %6s %12s\n", "head vs base", "trials", "regressed", "inconclusive", "pass", "median rounds")
	row := func(name string, slow string, scale func(*schema.Run)) {
		var reg, inc, pass int
		var rs []int
		for range *trials {
			o, n := trial(rng, rounds, slow, scale)
			switch o {
			case gate.Regressed:
				reg++
			case gate.Inconclusive:
				inc++
			default:
				pass++
			}
			rs = append(rs, n)
		}
		sort.Ints(rs)
		fmt.Printf("%-32s %7d %10s %13s %6s %12d\n", name, *trials, rate(reg, *trials), rate(inc, *trials), rate(pass, *trials), rs[len(rs)/2])
	}
	row("A/A (same configuration)", "", nil)
	for _, e := range []float64{0.05, 0.10, 0.20} {
		row(fmt.Sprintf("cycles/s −%.0f %%", e*100), "", func(r *schema.Run) {
			r.Throughput.CyclesPerS *= 1 - e
			r.Throughput.AttemptsPerS *= 1 - e
		})
	}
	for _, e := range []float64{0.05, 0.10, 0.20} {
		row(fmt.Sprintf("client CPU µs/cycle +%.0f %%", e*100), "", func(r *schema.Run) {
			if r.Cost != nil {
				r.Cost.ClientCPUUSPerCycle *= 1 + e
			}
		})
	}
	for _, v := range []string{"workers", "latency"} {
		if len(rounds) >= gate.Looks[0] {
			row(fmt.Sprintf("real: %s (cycles/s %+.0f %%)", v, 100*(medianRate(pools[v])/medianRate(A)-1)), v, nil)
		}
	}
}

// trial is one gate decision as --until-decided makes it, on the
// recorded rounds in a random order: each round's pair is (A, A) with the
// two A runs' roles drawn at random, or (A, the slowdown's run measured
// next to it).
func trial(rng *rand.Rand, rounds []round, slow string, scale func(*schema.Run)) (gate.Decision, int) {
	var base, head []*schema.Summary
	for _, p := range rng.Perm(len(rounds)) {
		r := rounds[p]
		// the runs measured next to each other: W A1 A2 L (or reversed)
		b, h := r["A"][0], r["A"][1]
		switch slow {
		case "workers":
			h = r[slow][0]
		case "latency":
			b, h = r["A"][1], r[slow][0]
		default:
			if rng.IntN(2) == 1 {
				b, h = h, b
			}
		}
		base, head = append(base, b), append(head, scaled(h, scale))
	}
	v := gate.Verdict{Decision: gate.Inconclusive} // when no look is reached
	n := 0
	for k, look := range gate.Looks {
		if look > len(base) {
			break
		}
		n = look
		in := gate.Input{Paired: true}
		for i := range look {
			in.Baseline = append(in.Baseline, gate.Source{Path: fmt.Sprint("b", i), Summary: base[i]})
			in.Current = append(in.Current, gate.Source{Path: fmt.Sprint("h", i), Summary: head[i]})
		}
		var err error
		v, err = gate.Check(in, gate.LookOptions(gate.DefaultOptions(), k))
		check(err)
		if v.Decision != gate.Inconclusive {
			break
		}
	}
	return v.Decision, n
}

// round is one recording round's runs by variant.
type round map[string][]*schema.Summary

// scaled is a copy of s with scale applied to its runs.
func scaled(s *schema.Summary, scale func(*schema.Run)) *schema.Summary {
	if scale == nil {
		return s
	}
	c := *s
	c.Runs = make([]schema.Run, len(s.Runs))
	for i, r := range s.Runs {
		if r.Cost != nil {
			cost := *r.Cost
			r.Cost = &cost
		}
		scale(&r)
		c.Runs[i] = r
	}
	return &c
}

// noise prints each judged metric's spread: across rounds (pool A's
// middle 90 % as ± % of its median) and within a round (the middle 90 % of
// the two A runs' ratios), which is what paired rounds see.
func noise(rounds []round) {
	fmt.Println("noise: middle 90 % of A runs as ± % of their median, across rounds and within a round (A2/A1)")
	for _, m := range []string{"client_cpu_us_per_cycle", "server_cpu_us_per_cycle", "client_writes_per_cycle", "client_reads_per_cycle",
		"cost.allocs_per_cycle", "attempts_per_cycle", "cycles_per_s", "cycle.p99"} {
		var xs, ratios []float64
		for _, r := range rounds {
			x, err1 := gate.Metric(r["A"][0].Runs[0], m)
			y, err2 := gate.Metric(r["A"][1].Runs[0], m)
			if err1 != nil || err2 != nil || !(x > 0 && y > 0) {
				continue
			}
			xs, ratios = append(xs, x, y), append(ratios, y/x)
		}
		if len(xs) < 2 {
			continue
		}
		fmt.Printf("  %-26s %12.2f  ±%5.1f %%  ±%5.1f %%\n", m, stats.Median(xs), spread(xs), spread(ratios))
	}
}

// spread is the half-width of the middle 90 % of xs as % of their median.
func spread(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	lo, hi := s[int(0.05*float64(len(s)))], s[int(math.Ceil(0.95*float64(len(s))))-1]
	return 100 * (hi - lo) / 2 / stats.Median(s)
}

// record runs the rounds: W A A L, reversed every other round, so each
// slowdown's run sits next to an A run and the A runs next to each other.
func record(bin, dir string, n int, runArgs string, workers int, fault string) []round {
	variants := []struct{ name, extra string }{
		{"workers", fmt.Sprintf("--workers %d", workers)}, {"A", ""}, {"A", ""}, {"latency", "--fault " + fault},
	}
	var rounds []round
	start := time.Now()
	for r := range n {
		this := round{}
		for k := range variants {
			if r%2 == 1 {
				k = len(variants) - 1 - k
			}
			v := variants[k]
			path := filepath.Join(dir, fmt.Sprintf("r%03d-%d-%s.json", r, k, v.name))
			args := strings.Fields(runArgs + " " + v.extra)
			cmd := exec.Command(bin, append(append([]string{"run", "-q"}, args...), "--json", path)...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				var exit *exec.ExitError
				if errors.As(err, &exit) && exit.ExitCode() == 2 { // bad input: every round would fail alike
					fmt.Fprintf(os.Stderr, "gatecal: %s run refused its flags: %s", v.name, stderr.String())
					os.Exit(2)
				}
				fmt.Fprintf(os.Stderr, "gatecal: round %d %s: %v (round skipped)\n", r, v.name, err)
				continue
			}
			s, err := schema.ReadSummary(path)
			check(err)
			this[v.name] = append(this[v.name], s)
		}
		if r%2 == 1 && len(this["A"]) == 2 { // A runs in variants' order, as load reads them
			this["A"][0], this["A"][1] = this["A"][1], this["A"][0]
		}
		if complete(this) {
			rounds = append(rounds, this)
		}
		fmt.Fprintf(os.Stderr, "gatecal: round %d/%d recorded (%s)\n", r+1, n, time.Since(start).Round(time.Second))
	}
	return rounds
}

// load reads the rounds record wrote into dir.
func load(dir string) []round {
	paths, err := filepath.Glob(filepath.Join(dir, "r*-*-*.json"))
	check(err)
	sort.Strings(paths)
	by := map[string]round{}
	var order []string
	for _, p := range paths {
		f := strings.SplitN(strings.TrimSuffix(filepath.Base(p), ".json"), "-", 3)
		s, err := schema.ReadSummary(p)
		check(err)
		if by[f[0]] == nil {
			by[f[0]], order = round{}, append(order, f[0])
		}
		by[f[0]][f[2]] = append(by[f[0]][f[2]], s)
	}
	var rounds []round
	for _, k := range order {
		if complete(by[k]) {
			rounds = append(rounds, by[k])
		}
	}
	return rounds
}

// complete: a round with every run valid; one with a run missing pairs
// nothing.
func complete(r round) bool {
	for _, ss := range r {
		for _, s := range ss {
			if s.Validate() != nil {
				return false
			}
		}
	}
	return len(r["A"]) == 2 && len(r["workers"]) == 1 && len(r["latency"]) == 1
}

func medianRate(ss []*schema.Summary) float64 {
	var xs []float64
	for _, s := range ss {
		xs = append(xs, s.Runs[0].Throughput.CyclesPerS)
	}
	return stats.Median(xs)
}

// rate is k of n as a percentage with its 95 % Wilson interval.
func rate(k, n int) string {
	p, z := float64(k)/float64(n), 1.96
	d := 1 + z*z/float64(n)
	c := (p + z*z/(2*float64(n))) / d
	h := z * math.Sqrt(p*(1-p)/float64(n)+z*z/(4*float64(n*n))) / d
	return fmt.Sprintf("%.0f %% [%.0f–%.0f]", 100*p, 100*max(0, c-h), 100*min(1, c+h))
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gatecal:", err)
		os.Exit(1)
	}
}
