package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// probedRounds makes two cells measured in len(probes) rounds: in round i the
// memory probe read probes[i] and every cell ran at its base rate times
// speed(probes[i]).
func probedRounds(probes []float64, speed func(p float64) float64) []schema.Run {
	var runs []schema.Run
	for i, p := range probes {
		for name, base := range map[string]float64{"a": 30000, "b": 6000} {
			r := schema.Run{Name: name, Workload: "uncontended", Repeat: i + 1, MemoryProbeNS: p}
			r.Throughput.CyclesPerS = base * speed(p)
			runs = append(runs, r)
		}
	}
	return runs
}

// The Machine says how far the rounds' speed moved and whether it moved
// with the probe: every cell of a round slows alike when the host's
// memory does, so the rounds' speed, relative to each cell's own median,
// is what the probe is held against.
func TestMachineOfRounds(t *testing.T) {
	probes := []float64{200, 210, 250, 300, 400, 220, 205, 260}
	follows := probedRounds(probes, func(p float64) float64 { return math.Pow(p/200, -0.25) })
	m := machineOf(follows)
	if m == nil {
		t.Fatal("no Machine from probed rounds")
	}
	if m.Rounds != len(probes) || m.ProbeNS.Min != 200 || m.ProbeNS.Max != 400 {
		t.Errorf("rounds %d, probe %+v: want 8 rounds, 200–400 ns", m.Rounds, m.ProbeNS)
	}
	if m.Correlation > -0.99 || math.Abs(m.Elasticity+0.25) > 1e-9 {
		t.Errorf("correlation %.3f, elasticity %.3f: want −1 and −0.25", m.Correlation, m.Elasticity)
	}
	// The slowest round (probe 400) ran 2^-0.25 of the one at 200; the
	// speeds are relative to each cell's median round.
	if got, want := m.Speed.Max/m.Speed.Min, math.Pow(2, 0.25); math.Abs(got-want) > 1e-9 {
		t.Errorf("fastest ÷ slowest round %.4f, want %.4f", got, want)
	}
	if s := m.String(); !strings.Contains(s, "slower as it rose") || !strings.Contains(s, "200–400 ns/load") {
		t.Errorf("Machine text %q: want the probe's range and that the rounds followed it", s)
	}

	alike := probedRounds(probes, func(float64) float64 { return 1 })
	if m := machineOf(alike); m == nil || m.Correlation != 0 || !strings.Contains(m.String(), "not following it") {
		t.Errorf("rounds at one speed: %+v, want correlation 0 and 'not following it'", m)
	}

	unprobed := probedRounds(probes, func(float64) float64 { return 1 })
	for i := range unprobed {
		unprobed[i].MemoryProbeNS = 0
	}
	if m := machineOf(unprobed); m != nil {
		t.Errorf("runs without a probe: %+v, want nil", m)
	}

	few := machineOf(probedRounds(probes[:2], func(p float64) float64 { return 200 / p }))
	if few == nil || few.Correlation != 0 || strings.Contains(few.String(), "r =") {
		t.Errorf("two rounds: %+v, want no correlation claimed", few)
	}
}
