package sweep

import (
	"context"
	"fmt"
	"testing"

	"github.com/lockbench/lockbench/workloads/lab"
)

// TestKneeConfirmed: with Repeat 3 a step's verdict is its measurements'
// median: a failure measured once is confirmed before it ends the climb,
// the step below it is confirmed before it is the knee, each bisection
// step is measured 3 times; the knee lies under the lowest confirmed bad
// load, which the sweep reports. A failure on p99 alone ends the climb
// only when a load half a step above it fails too.
func TestKneeConfirmed(t *testing.T) {
	three := func(start float64, refine int) Config {
		return Config{Base: lab.DefaultConfig(), By: ByWorkers, Start: start, Factor: 2, MaxSteps: 20, Refine: refine, Repeat: 3,
			IntervalRounds: NoInterval}
	}
	const ok, bad = 1000, 10000 // p99 µs under and over the default 2 ms SLO
	for _, tc := range []struct {
		name      string
		cfg       Config
		lab       fakeLab
		wantLoads []float64
		knee, bad float64
	}{
		{"a clean knee: confirm both sides, then bisect on 3 each", three(100, 1), fakeLab{p99: under(300)},
			[]float64{100, 200, 400, 400, 400, 566, 200, 200, 300, 300, 300}, 300, 400},
		{"one bad measurement (the failure's first) does not end the climb", three(100, NoRefine),
			fakeLab{p99: under(300), noisy: map[float64][]float64{200: {bad}}},
			[]float64{100, 200, 200, 200, 400, 400, 400, 566}, 200, 400},
		{"a lucky pass below the failure is not the knee", three(100, NoRefine),
			fakeLab{p99: under(150), noisy: map[float64][]float64{200: {ok}}},
			[]float64{100, 200, 400, 400, 400, 566, 200, 200, 100, 100}, 100, 200},
		{"a failure the median overrules: the climb goes on", three(100, NoRefine),
			fakeLab{p99: under(1000), noisy: map[float64][]float64{400: {bad, ok, ok}}},
			[]float64{100, 200, 400, 400, 400, 800, 1600, 1600, 1600, 2263, 800, 800}, 800, 1600},
		{"a failure the median confirms, at the floor: half a step above holds, so it was noise", three(100, NoRefine),
			fakeLab{p99: under(1000), noisy: map[float64][]float64{400: {bad, ok, bad}}},
			[]float64{100, 200, 400, 400, 400, 566, 566, 566, 1132, 1132, 1132, 1601}, 566, 1132},
		{"a noisy failure just under the capacity: half a step above still holds, a whole step would not", three(100, NoRefine),
			fakeLab{p99: under(600), noisy: map[float64][]float64{400: {bad, ok, bad}}},
			[]float64{100, 200, 400, 400, 400, 566, 566, 566, 1132, 1132, 1132, 1601}, 566, 1132},
		{"a failure the median confirms, half a step above failing too: the curve rises", three(100, NoRefine),
			fakeLab{p99: under(1000), noisy: map[float64][]float64{400: {bad, ok, bad}, 566: {bad}}},
			[]float64{100, 200, 400, 400, 400, 566, 200, 200}, 200, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), &tc.lab, tc.cfg, Observers{})
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.lab.loads(); fmt.Sprint(got) != fmt.Sprint(tc.wantLoads) {
				t.Fatalf("loads %v, want %v", got, tc.wantLoads)
			}
			sw := res.Sweeps[0]
			if sw.Knee < 0 || float64(sw.Steps[sw.Knee].Workers) != tc.knee || sw.BadLoad != tc.bad {
				t.Fatalf("knee step %d of %+v, bad load %v: want knee %v under %v", sw.Knee, sw.Steps, sw.BadLoad, tc.knee, tc.bad)
			}
			for _, st := range sw.Steps {
				if load := float64(st.Workers); load >= sw.BadLoad && st.OK {
					t.Errorf("step at %v held, at or over the bad load %v", load, sw.BadLoad)
				}
			}
			if k := sw.Steps[sw.Knee]; k.Samples != 3 {
				t.Errorf("knee judged on %d measurements, want 3", k.Samples)
			}
			for _, c := range res.Cells {
				if n := len(res.Cells); c.Run.Repeat == 0 && countName(res.Cells, c.Run.Name) > 1 {
					t.Errorf("%s measured several times (of %d) without its round", c.Run.Name, n)
				}
			}
		})
	}
}

func countName(cells []lab.Cell, name string) int {
	n := 0
	for _, c := range cells {
		if c.Run.Name == name {
			n++
		}
	}
	return n
}

// TestFreshPrefixPerStep: every measurement of a sweep has keys of its
// own, so a step whose cycles were cut short (keys left held until their
// TTL) cannot make split votes in the next one: no step sees split
// brain, and the knee is where the lab's capacity is.
func TestFreshPrefixPerStep(t *testing.T) {
	cfg := Config{Base: lab.DefaultConfig(), By: ByWorkers, Start: 100, Factor: 2, MaxSteps: 20, Refine: 2, Repeat: 3,
		Muxes: []string{"fanout", "pipeline"}}
	f := &fakeLab{p99: under(500), capacity: 500, leaves: true}
	res, err := Run(context.Background(), f, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, c := range f.measured {
		if p := c.Workload.Prefix; seen[p] {
			t.Errorf("measurement %d reuses key prefix %q", i, p)
		}
		seen[c.Workload.Prefix] = true
	}
	for _, c := range res.Cells {
		if c.Run.Counts.SplitBrain > 0 {
			t.Errorf("%s: %d split votes from keys an earlier step left", c.Run.Name, c.Run.Counts.SplitBrain)
		}
	}
	for _, sw := range res.Sweeps {
		if sw.Knee < 0 || sw.Steps[sw.Knee].Workers != 500 {
			t.Errorf("%s: knee %d of %+v, want 500 workers", sw.Name, sw.Knee, sw.Steps)
		}
	}
}
