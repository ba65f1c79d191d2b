package sweep

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// probe is a probe load with its rounds' verdicts, "+" held, "-" failed.
func probe(load float64, rounds string) schema.SweepProbe {
	p := schema.SweepProbe{Load: load}
	for _, r := range rounds {
		p.OK, p.P99US = append(p.OK, r == '+'), append(p.P99US, 0)
	}
	return p
}

// TestKneeInterval: each round's knee is the highest probe that held in
// it; the interval spans them up to the lowest probe that failed in every
// round, and widens, saying why, when a probe's rounds disagree.
func TestKneeInterval(t *testing.T) {
	c := Config{By: ByRate, Factor: 1.5, Base: lab.DefaultConfig()}
	c.Base.Workload.Duration = 3e9
	for _, tc := range []struct {
		name   string
		probes []schema.SweepProbe
		lo, hi float64
		why    []string // each in some reason
	}{
		{"rounds agree: the knee up to the bad step", []schema.SweepProbe{probe(900, "+++"), probe(1000, "+++"), probe(1100, "---")},
			1000, 1100, []string{"up to 1100/s, which failed in every round"}},
		{"the knee held in 2 of 3: down to the step below", []schema.SweepProbe{probe(900, "+++"), probe(1000, "+-+"), probe(1100, "---")},
			900, 1100, []string{"1000/s met the SLO in 2 of 3 rounds"}},
		{"the step below wavers too: under it", []schema.SweepProbe{probe(900, "++-"), probe(1000, "+--"), probe(1100, "---")},
			600, 1100, []string{"round 3: no probe met the SLO", "900/s met the SLO in 2 of 3", "1000/s met the SLO in 1 of 3"}},
		{"the step below held in 2 of 3: under it", []schema.SweepProbe{probe(900, "+-+"), probe(1000, "+++"), probe(1100, "---")},
			600, 1100, []string{"900/s met the SLO in 2 of 3 rounds"}},
		{"the bad step held once: above it", []schema.SweepProbe{probe(900, "+++"), probe(1000, "+++"), probe(1100, "-+-")},
			1000, 1200, []string{"1100/s met the SLO in 1 of 3", "the capacity may lie above it"}},
		{"out of order rounds", []schema.SweepProbe{probe(1100, "---"), probe(900, "+++"), probe(1000, "+++")},
			1000, 1100, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi, why := kneeInterval(c, 1000, tc.probes)
			if lo != tc.lo || hi != tc.hi {
				t.Fatalf("interval [%v, %v], want [%v, %v]; why %q", lo, hi, tc.lo, tc.hi, why)
			}
			for _, w := range tc.why {
				if !strings.Contains(strings.Join(why, "\n"), w) {
					t.Errorf("no %q in %q", w, why)
				}
			}
		})
	}
}

// TestKneeIntervalWidensOnDisagreement: whichever probe's rounds
// disagree, the interval is wider than when they all agree, and says
// why.
func TestKneeIntervalWidensOnDisagreement(t *testing.T) {
	c := Config{By: ByWorkers, Factor: 2}
	agree := []schema.SweepProbe{probe(32, "+++"), probe(40, "+++"), probe(48, "---")}
	lo0, hi0, _ := kneeInterval(c, 40, agree)
	for i, flip := range []string{"+-+", "-++", "+--"} {
		for p := range agree {
			ps := append([]schema.SweepProbe(nil), agree...)
			if p == 2 {
				flip = strings.Map(func(r rune) rune { return map[rune]rune{'+': '-', '-': '+'}[r] }, flip)
			}
			ps[p] = probe(ps[p].Load, flip)
			lo, hi, why := kneeInterval(c, 40, ps)
			if lo > lo0 || hi < hi0 || hi-lo <= hi0-lo0 || !strings.Contains(strings.Join(why, ";"), "rounds: a rerun's knee may fall") {
				t.Errorf("%d: probe %d rounds %s: [%v, %v] against [%v, %v] when they agree; why %q", i, p, flip, lo, hi, lo0, hi0, why)
			}
		}
	}
}

// TestProbeRounds: after the search the step below the knee, the knee and
// the first bad step are measured once per round, round-robin (each round
// starting one probe further on, never one load back to back with
// itself in a round), and the sweep carries the probes and the interval;
// a probe that fails in one round widens it.
func TestProbeRounds(t *testing.T) {
	cfg := Config{Base: lab.DefaultConfig(), By: ByWorkers, Start: 100, Factor: 2, MaxSteps: 20, Refine: 1, Repeat: 1, IntervalRounds: 3}
	for _, tc := range []struct {
		name   string
		noisy  map[float64][]float64
		lo, hi float64
	}{
		{"agree", nil, 300, 400},
		{"the knee fails its second probe", map[float64][]float64{300: {1000, 10000}}, 200, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeLab{p99: under(300), noisy: tc.noisy}
			res, err := Run(context.Background(), f, cfg, Observers{})
			if err != nil {
				t.Fatal(err)
			}
			sw := res.Sweeps[0]
			loads := f.loads()
			search, probes := loads[:len(loads)-9], loads[len(loads)-9:]
			if fmt.Sprint(search) != "[100 200 400 566 300]" || fmt.Sprint(probes) != "[200 300 400 300 400 200 400 200 300]" {
				t.Fatalf("search %v, probes %v", search, probes)
			}
			if len(sw.Probes) != 3 || len(sw.Probes[0].OK) != 3 {
				t.Fatalf("probes %+v", sw.Probes)
			}
			if len(sw.KneeInterval) != 2 || sw.KneeInterval[0] != tc.lo || sw.KneeInterval[1] != tc.hi || len(sw.IntervalWhy) == 0 {
				t.Fatalf("interval %v (%q), want [%v %v]", sw.KneeInterval, sw.IntervalWhy, tc.lo, tc.hi)
			}
		})
	}
}
