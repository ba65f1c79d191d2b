// Command kneecov measures how well a sweep's knee_interval predicts a
// rerun: it runs the same `lockbench sweep` --runs times, one after the
// other on the same machine, and reports, per strategy, the share of the
// reruns' knees that fall inside the first run's interval (and, beside
// it, inside each run's own interval, every other run's knee counted),
// and the share among the reruns whose host, probed idle before and after
// each sweep, was as run 1 found it.
// scripts/knee-coverage.sh builds lockbench and runs it:
//
//	scripts/knee-coverage.sh --runs 11 -- --slo 20ms --muxes pipeline --client goredis
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lockbench/lockbench/results/procstat"
	"github.com/lockbench/lockbench/results/schema"
)

func main() {
	bin := flag.String("lockbench", "lockbench", "the lockbench binary")
	runs := flag.Int("runs", 11, "sweeps to run: the first and its reruns (at least 2)")
	dir := flag.String("dir", "", "keep every sweep's --out here (default: a temporary directory)")
	from := flag.Bool("from", false, "read the sweeps already in --dir instead of running them")
	flag.Parse()
	if *runs < 2 || *runs > 1000 {
		fail(2, "--runs %d: must be 2 to 1000", *runs)
	}
	if *from && *dir == "" {
		fail(2, "--from: give the --dir to read")
	}
	if *dir != "" && !*from {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			fail(1, "--dir: %v", err)
		}
	}
	if *dir == "" {
		d, err := os.MkdirTemp("", "kneecov-")
		if err != nil {
			fail(1, "%v", err)
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	var all [][]schema.Sweep
	for i := range *runs {
		out := filepath.Join(*dir, fmt.Sprintf("run-%02d", i))
		if !*from {
			start := time.Now()
			args := append([]string{"sweep", "-q", "--out", out}, flag.Args()...)
			cmd := exec.Command(*bin, args...)
			cmd.Stderr = os.Stderr
			if err := cmd.Run(); err != nil {
				fail(1, "run %d: lockbench %s: %v", i, strings.Join(args, " "), err)
			}
			fmt.Fprintf(os.Stderr, "run %d of %d: %v\n", i+1, *runs, time.Since(start).Round(time.Second))
		}
		sw, err := schema.ReadSweeps(out)
		if err != nil {
			fail(1, "run %d: %v", i, err)
		}
		all = append(all, sw)
	}
	report(os.Stdout, all)
}

// knee is one strategy's knee in one run, with its interval.
type knee struct {
	load   float64
	lo, hi float64
	ok     bool
	// before and after are the host's noise probed idle before and
	// after the sweep (nil: not probed); changed: the sweep judged them
	// apart, or they are by procstat.HostChanged as it is now.
	before, after *schema.HostNoise
	changed       bool
	// drift is the sweep's own drift between its search and its rounds
	// (schema.SweepDrift.Spread; 0: none seen).
	drift float64
}

// hostText is k's host as probed: "stalls a → b ms/s", "" when not.
func (k knee) hostText() string {
	if k.before == nil || k.after == nil {
		return ""
	}
	if k.before.Stalls+k.after.Stalls > 0 {
		return fmt.Sprintf("stalls %.1f → %.1f ms/s (%d → %d)", k.before.StallMSPerS, k.after.StallMSPerS, k.before.Stalls, k.after.Stalls)
	}
	return fmt.Sprintf("stalls %.1f → %.1f ms/s", k.before.StallMSPerS, k.after.StallMSPerS)
}

// sameHost: k's sweep ran on the host as first's found it: both probed,
// neither saw its host change, and k's probes are within the bounds of
// first's (procstat.HostChanged), before and after.
func (k knee) sameHost(first knee) bool {
	if k.before == nil || k.after == nil || first.before == nil || first.after == nil || k.changed || first.changed {
		return false
	}
	return procstat.HostChanged(*first.before, *k.before) == "" && procstat.HostChanged(*first.after, *k.after) == ""
}

func kneeOf(s schema.Sweep) knee {
	if s.Knee < 0 || s.Knee >= len(s.Steps) {
		return knee{}
	}
	st := s.Steps[s.Knee]
	k := knee{load: st.Rate, ok: true}
	if s.Stepped == "workers" {
		k.load = float64(st.Workers)
	}
	if len(s.KneeInterval) == 2 {
		k.lo, k.hi = s.KneeInterval[0], s.KneeInterval[1]
	}
	k.before, k.after = s.HostBefore, s.HostAfter
	if s.Drift != nil {
		k.drift = s.Drift.Spread
	}
	k.changed = s.HostChanged != "" || (k.before != nil && k.after != nil && procstat.HostChanged(*k.before, *k.after) != "")
	return k
}

func report(w io.Writer, all [][]schema.Sweep) {
	byName := map[string][]knee{}
	for _, run := range all {
		for _, s := range run {
			byName[s.Name] = append(byName[s.Name], kneeOf(s))
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ks := byName[n]
		fmt.Fprintf(w, "%s: %d runs\n", n, len(ks))
		fmt.Fprintf(w, "  %-4s %10s  %-23s %-14s %s\n", "run", "knee", "knee_interval", "inside run 1's", "host (idle, before → after)")
		first := ks[0]
		in, of := 0, 0
		sameIn, sameOf := 0, 0 // reruns on the host as run 1 found it
		for i, k := range ks {
			mark := ""
			if i > 0 && k.ok && first.ok {
				of++
				inside := k.load >= first.lo && k.load <= first.hi
				mark = "no"
				if inside {
					in++
					mark = "yes"
				}
				if k.sameHost(first) {
					sameOf++
					if inside {
						sameIn++
					}
				}
			}
			host := k.hostText()
			if k.drift > 0 {
				host = strings.TrimSpace(fmt.Sprintf("%s; drift ±%.0f %%", host, 100*(math.Exp(k.drift)-1)))
			}
			switch {
			case k.changed:
				host += " (changed during the sweep)"
			case i > 0 && host != "" && !k.sameHost(first):
				host += " (unlike run 1's)"
			}
			fmt.Fprintf(w, "  %-4d %10.0f  [%9.0f, %9.0f]  %-14s %s\n", i+1, k.load, k.lo, k.hi, mark, host)
		}
		each, eachOf := 0, 0
		for i, a := range ks {
			for j, b := range ks {
				if i != j && a.ok && b.ok {
					eachOf++
					if b.load >= a.lo && b.load <= a.hi {
						each++
					}
				}
			}
		}
		fmt.Fprintf(w, "  coverage: %d of %d reruns' knees inside run 1's interval (%.0f %%); every run's interval holds %d of %d other knees (%.0f %%)\n",
			in, of, pct(in, of), each, eachOf, pct(each, eachOf))
		if sameOf < of {
			fmt.Fprintf(w, "  on the host as run 1 found it (probed idle before and after, neither changed): %d of %d inside run 1's interval (%.0f %%)\n",
				sameIn, sameOf, pct(sameIn, sameOf))
		}
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func fail(code int, format string, a ...any) {
	fmt.Fprintf(os.Stderr, "kneecov: "+format+"\n", a...)
	os.Exit(code)
}
