package workloads

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestOpenLoopSchedule(t *testing.T) {
	cases := []struct {
		name string
		rate float64
		ramp time.Duration
		n    int64
		want time.Duration // intended start of slot n
	}{
		{"constant: slot 0 at origin", 1000, 0, 0, 0},
		{"constant: 1000/s", 1000, 0, 1500, 1500 * time.Millisecond},
		{"ramp: R·D/2 slots in the ramp", 1000, 2 * time.Second, 1000, 2 * time.Second},
		{"ramp: quarter of the ramp's slots by half of it", 1000, 2 * time.Second, 250, time.Second},
		{"after the ramp: 1/R apart", 1000, 2 * time.Second, 1100, 2100 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newOpenLoop(nil, 0, c.rate, c.ramp, 0, time.Hour)
			if got := time.Duration(p.at(c.n)); (got - c.want).Abs() > time.Microsecond {
				t.Errorf("at(%d) = %v, want %v", c.n, got, c.want)
			}
			// slotsBy inverts at: slot n is due by at(n)+1ns.
			if got := p.slotsBy(p.at(c.n) + 1); got != c.n+1 {
				t.Errorf("slotsBy(at(%d)+1) = %d, want %d", c.n, got, c.n+1)
			}
		})
	}
}

func TestRampDelay(t *testing.T) {
	cfg := Config{Workers: 4, Ramp: 4 * time.Second}
	for w, want := range []time.Duration{0, time.Second, 2 * time.Second, 3 * time.Second} {
		if got := rampDelay(cfg, w); got != want {
			t.Errorf("worker %d starts after %v, want %v", w, got, want)
		}
	}
	cfg.Rate = 100 // the open loop ramps the rate instead
	if got := rampDelay(cfg, 3); got != 0 {
		t.Errorf("open loop worker delayed %v", got)
	}
	if got := (Config{Warmup: time.Second, Ramp: 3 * time.Second}).warmup(); got != 3*time.Second {
		t.Errorf("warmup %v does not cover the ramp", got)
	}
}

func TestHoldDistributions(t *testing.T) {
	const mean = 2 * time.Millisecond
	cases := []struct {
		dist     string
		min, max time.Duration // every draw within
	}{
		{"fixed", mean, mean},
		{"", mean, mean},
		{"uniform", 0, 2 * mean},
		{"exp", 0, expCap * mean},
	}
	for _, c := range cases {
		t.Run(c.dist, func(t *testing.T) {
			f, err := newHoldSampler(c.dist, mean)
			if err != nil {
				t.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			var sum time.Duration
			const n = 20000
			for range n {
				d := f(r)
				if d < c.min || d > c.max {
					t.Fatalf("draw %v outside [%v, %v]", d, c.min, c.max)
				}
				sum += d
			}
			if got := sum / n; math.Abs(float64(got-mean)) > 0.05*float64(mean) {
				t.Errorf("mean %v, want %v ±5%%", got, mean)
			}
		})
	}
	if _, err := newHoldSampler("pareto", mean); err == nil {
		t.Error("unknown distribution accepted")
	}
}

func TestZipfSkew(t *testing.T) {
	cases := []struct {
		s       float64
		keys    int
		topFrac float64 // share of key 0: 1/H(n,s)
	}{
		{1.1, 100, 1 / harmonic(100, 1.1)},
		{0.5, 10, 1 / harmonic(10, 0.5)},
	}
	for _, c := range cases {
		cfg := Config{Workload: "zipf", Keys: c.keys, ZipfS: c.s, Prefix: "z"}
		if err := generators["zipf"].validate(cfg); err != nil {
			t.Fatal(err)
		}
		src := generators["zipf"].new(cfg).Worker(0)
		hot := contendedKeys("z", c.keys)[0]
		const n = 50000
		var top int
		for range n {
			if src.Next() == hot {
				top++
			}
		}
		if got := float64(top) / n; math.Abs(got-c.topFrac) > 0.02 {
			t.Errorf("s=%v: key 0 drawn %.3f of the time, want %.3f", c.s, got, c.topFrac)
		}
	}
	if err := generators["zipf"].validate(Config{Keys: 10, ZipfS: 0}); err == nil {
		t.Error("--zipf-s 0 accepted")
	}
}

func harmonic(n int, s float64) float64 {
	var h float64
	for i := 1; i <= n; i++ {
		h += math.Pow(float64(i), -s)
	}
	return h
}

// TestOpenLoopCountsWindowSlots: the books count the window's slots only.
// Workers that keep taking slots after the window's end (its deadline
// delivered late on a loaded machine) or before its start (warmup) must
// not raise started above scheduled: every slot started is one scheduled.
func TestOpenLoopCountsWindowSlots(t *testing.T) {
	var now int64 // a clock that jumps to each slot: no worker is ever late
	ctx := context.Background()
	p := newOpenLoop(func() int64 { return now }, 0, 1000, 0, 100*time.Millisecond, time.Second)
	for {
		at, ok := p.Next(ctx, 0)
		if !ok {
			t.Fatal("Next refused without a cancel")
		}
		now = at
		if at >= int64(1200*time.Millisecond) { // 200 ms past the window's end
			break
		}
	}
	s := p.stats(int64(1100 * time.Millisecond))
	if s.Scheduled != 1000 || s.Started != s.Scheduled || s.Unstarted != 0 || s.Late != 0 {
		t.Errorf("pacing %+v: want 1000 scheduled, all started, none late or unstarted", s)
	}
}
