package sweep

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestKneeIntervalCoversReruns: on a modelled lab, a queue whose p99
// grows as 1/(1 − load/capacity) from a 5 ms floor, times log-normal host
// noise, 30 sweeps (seeded, so the same every time) are reruns of each
// other: most of each run's interval holds the other runs' knees. This
// is the model's coverage, not a machine's; scripts measure that.
// queueSweep sweeps the modelled queue (a 20,000 cycles/s capacity, a
// 5 ms floor, log-normal noise of σ noise, seeded) with modelSweep.
func queueSweep(t *testing.T, noise float64, seed, stream uint64) schema.Sweep {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, stream))
	_, res := modelSweep(t, &fakeLab{p99: func(load float64) float64 {
		return 5000 / (1 - math.Min(load/20000, 0.999)) * math.Exp(noise*rng.NormFloat64())
	}})
	return res.Sweeps[0]
}

// modelSweep sweeps f with a 20 ms SLO and 2 s steps; the sweep must
// have a knee and an interval.
func modelSweep(t *testing.T, f *fakeLab) (Config, result) {
	t.Helper()
	cfg := Config{Base: lab.DefaultConfig(), Start: 200, Factor: 1.5, MaxSteps: 30, Refine: 2, Repeat: 3, SLO: 20 * time.Millisecond}
	cfg.Base.Workload.Duration = 2 * time.Second
	res, err := Run(context.Background(), f, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	if sw := res.Sweeps[0]; sw.Knee < 0 || len(sw.KneeInterval) != 2 {
		t.Fatalf("knee %d, interval %v", sw.Knee, sw.KneeInterval)
	}
	return cfg.withDefaults(), res
}

func TestKneeIntervalCoversReruns(t *testing.T) {
	for _, tc := range []struct {
		noise float64 // σ of log p99
		least float64 // share of the other runs' knees inside a run's interval
	}{{0.1, 0.9}, {0.3, 0.85}, {0.5, 0.8}} {
		var ivs [][]float64
		var knees []float64
		for seed := range 30 {
			sw := queueSweep(t, tc.noise, uint64(seed), 7)
			knees, ivs = append(knees, sw.Steps[sw.Knee].Rate), append(ivs, sw.KneeInterval)
		}
		if share := pairCoverage(knees, ivs); share < tc.least {
			t.Errorf("noise %v: %.0f%% of the other runs' knees inside the intervals, want at least %.0f%%; knees %v",
				tc.noise, 100*share, 100*tc.least, knees)
		}
	}
}

// pairCoverage is the share of every run's interval against every other
// run's knee that holds it.
func pairCoverage(knees []float64, ivs [][]float64) float64 {
	in, pairs := 0, 0
	for i, iv := range ivs {
		for j, k := range knees {
			if i != j {
				pairs++
				if k >= iv[0] && k <= iv[1] {
					in++
				}
			}
		}
	}
	return float64(in) / float64(pairs)
}
