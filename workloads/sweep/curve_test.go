package sweep

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestSafeRate: the highest load at or under the knee whose every
// measurement met the SLO; one failing measurement of the knee puts it
// below; none is 0.
func TestSafeRate(t *testing.T) {
	c := Config{By: ByWorkers}.withDefaults()
	run := func(p99 float64) schema.Run {
		return schema.Run{LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 1000, P99: p99}}, Counts: schema.Counts{Attempts: 1000}}
	}
	ok, bad := run(1000), run(5000)
	for _, tc := range []struct {
		name string
		runs map[float64][]schema.Run
		knee float64
		want float64
	}{
		{"every measurement held: the knee", map[float64][]schema.Run{1: {ok}, 2: {ok, ok, ok}, 4: {bad}}, 2, 2},
		{"the knee failed once: below it", map[float64][]schema.Run{1: {ok}, 2: {ok, bad, ok}, 4: {bad}}, 2, 1},
		{"a load above the knee never counts", map[float64][]schema.Run{1: {ok}, 2: {ok, bad, ok}, 4: {ok}}, 2, 1},
		{"none held", map[float64][]schema.Run{1: {bad, ok}, 2: {ok, bad}}, 2, 0},
	} {
		if got := safeRate(c, tc.knee, tc.runs); got != tc.want {
			t.Errorf("%s: safe %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSafeRateUnderKnee: on labs whose p99 is noisy around their
// capacity, every sweep's safe rate is at most its knee, and at most the
// low end of its interval only when every probe of that end held.
func TestSafeRateUnderKnee(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 40 {
		capacity := 200 + rng.Float64()*800
		f := &fakeLab{p99: func(load float64) float64 {
			p := 1000 + 1500*load/capacity // 2.5 ms at the capacity: crosses 2 ms under it
			return p * (0.7 + 0.6*rng.Float64())
		}}
		cfg := Config{Base: lab.DefaultConfig(), By: ByWorkers, Start: 50, Factor: 1.5, MaxSteps: 20, Refine: 2, Repeat: 3}
		res, err := Run(context.Background(), f, cfg, Observers{})
		if err != nil {
			t.Fatal(err)
		}
		sw := res.Sweeps[0]
		if sw.Knee < 0 {
			if sw.SafeRate != 0 {
				t.Errorf("%d: no knee, safe %v", i, sw.SafeRate)
			}
			continue
		}
		if knee := float64(sw.Steps[sw.Knee].Workers); sw.SafeRate > knee {
			t.Errorf("%d: safe %v over the knee %v", i, sw.SafeRate, knee)
		}
		if iv := sw.KneeInterval; len(iv) != 2 || iv[0] > iv[1] {
			t.Errorf("%d: interval %v", i, iv)
		}
	}
}

// TestNoiseAtFloor: a step at the floor whose p99 is noise (over the SLO
// on 2 of its 3 measurements) while a load half a step above it holds
// does not end the climb: the knee is where the curve rises, the step is marked noise
// and the knees table says so.
func TestNoiseAtFloor(t *testing.T) {
	cfg := Config{Base: lab.DefaultConfig(), By: ByWorkers, Start: 100, Factor: 2, MaxSteps: 20, Refine: NoRefine, Repeat: 3,
		IntervalRounds: NoInterval}
	f := &fakeLab{p99: under(1000), noisy: map[float64][]float64{100: {1000}, 200: {10000, 10000, 1000}}}
	res, err := Run(context.Background(), f, cfg, Observers{})
	if err != nil {
		t.Fatal(err)
	}
	sw := res.Sweeps[0]
	if sw.Knee < 0 || sw.Steps[sw.Knee].Workers != 566 || sw.BadLoad != 1132 {
		t.Fatalf("knee %d of %+v, bad %v: want 566 under 1132", sw.Knee, sw.Steps, sw.BadLoad)
	}
	noise := 0
	for _, st := range sw.Steps {
		if st.Noise {
			noise++
			if st.Workers != 200 || st.OK {
				t.Errorf("noise step %+v, want the failing 200", st)
			}
		}
	}
	if noise != 1 {
		t.Errorf("%d noise steps in %+v", noise, sw.Steps)
	}
	var b strings.Builder
	WriteKnees(&b, res.Sweeps, cfg)
	if !strings.Contains(strings.Join(strings.Fields(b.String()), " "), "200 workers failed on its p99 but a load half a step above it held") {
		t.Errorf("no noise note in\n%s", b.String())
	}
}

// TestFloorNote: a floor over half the SLO is named under the knees; one
// under it is not.
func TestFloorNote(t *testing.T) {
	steps := func(floor float64) []schema.SweepStep {
		return []schema.SweepStep{{Rate: 200, P99US: floor, OK: true}, {Rate: 300, P99US: floor, OK: true}, {Rate: 450, P99US: 30000}}
	}
	c := Config{Op: "cycle", SLO: 20e6, By: ByRate}.withDefaults()
	for _, tc := range []struct {
		floor float64
		want  bool
	}{{6500, false}, {12000, true}} {
		sw := schema.Sweep{Name: "s", Op: "cycle", SLOUS: 20000, Steps: steps(tc.floor), Knee: 1, BadLoad: 450, SafeRate: 300}
		sw.FloorP99US = floorP99(c, sw.Steps)
		var b strings.Builder
		WriteKnees(&b, []schema.Sweep{sw}, c)
		if got := strings.Contains(b.String(), "the noise floor (cycle p99 at the lowest steps) is 12ms, 60% of the SLO"); got != tc.want {
			t.Errorf("floor %v: note %v, want %v:\n%s", tc.floor, got, tc.want, b.String())
		}
	}
}

// TestPlan: the target times the cost per cycle, per master for the
// server's; the masters bind when a master would need more than its
// share, the generator when its cores would.
func TestPlan(t *testing.T) {
	run := func(client, server float64) schema.Run {
		return schema.Run{Masters: 5, Counts: schema.Counts{Cycles: 1000},
			LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 1000, Mean: 2000}},
			ServiceUS: map[string]schema.Percentiles{"cycle": {Count: 1000, Mean: 500}},
			Cost:      &schema.Cost{ClientCPUUSPerCycle: client, ServerCPUUSPerCycle: server, Cores: 2}}
	}
	p := plan(10000, []schema.Run{run(40, 100), run(50, 110), run(60, 90)})
	if p.ClientCPUUSPerCycle != 50 || p.ServerCPUUSPerCycle != 100 || p.GeneratorCores != 0.5 || p.CoresPerMaster != 0.2 ||
		p.Workers != 5 || p.CycleUS != 500 || p.Binds != "generator" || p.HereRate != 2e6/150 {
		t.Fatalf("plan %+v", p)
	}
	if p := plan(10000, []schema.Run{run(10, 2000)}); p.Binds != "masters" || p.CoresPerMaster != 4 {
		t.Fatalf("plan %+v: want the masters to bind", p)
	}
	if plan(100, []schema.Run{{}}) != nil {
		t.Error("a plan without a cost")
	}
	var b strings.Builder
	sw := schema.Sweep{Name: "s", Steps: []schema.SweepStep{{Rate: 100, OK: true}}, Plan: plan(10000, []schema.Run{run(10, 2000)})}
	WriteKnees(&b, []schema.Sweep{sw}, Config{By: ByRate})
	if !strings.Contains(b.String(), "20 masters would carry it") {
		t.Errorf("plan note:\n%s", b.String())
	}
}
