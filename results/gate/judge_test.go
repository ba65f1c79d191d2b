package gate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// TestUTests: the one-sided U tests as the gate calls them: exact values
// for separated and interleaved samples (half the two-sided p of a
// separated pair), either direction, and no evidence where every value is
// equal.
func TestUTests(t *testing.T) {
	tests := []struct {
		name    string
		a, b    []float64
		greater float64 // p of "b above a"
		less    float64 // p of "b below a"
	}{
		{"b above, 4v4", []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 1.0 / 70, 1},
		{"b below, 4v4", []float64{5, 6, 7, 8}, []float64{1, 2, 3, 4}, 1, 1.0 / 70},
		{"b above, 3v3", []float64{1, 2, 3}, []float64{4, 5, 6}, 0.05, 1},
		// U of b = 10 of 16: P(U ≥ 10) = 24/70 (the counts of the U
		// distribution for 4 and 4: 1 1 2 3 5 5 7 7 8 7 7 5 5 3 2 1 1).
		{"interleaved", []float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}, 24.0 / 70, 53.0 / 70},
		{"all equal", []float64{5, 5, 5}, []float64{5, 5, 5}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := uGreater(tt.a, tt.b); math.Abs(p-tt.greater) > 1e-12 {
				t.Errorf("b above a: p %v, want %v", p, tt.greater)
			}
			if p := uLess(tt.a, tt.b); math.Abs(p-tt.less) > 1e-12 {
				t.Errorf("b below a: p %v, want %v", p, tt.less)
			}
		})
	}
}

// TestMinP: 2 / C(n1+n2, n1), and what fully separated samples give.
func TestMinP(t *testing.T) {
	for _, tt := range []struct {
		n1, n2 int
		want   float64
	}{{2, 2, 1.0 / 3}, {3, 3, 0.1}, {4, 4, 2.0 / 70}, {5, 5, 2.0 / 252}, {3, 5, 2.0 / 56}} {
		if got := MinP(tt.n1, tt.n2); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("MinP(%d,%d) = %v, want %v", tt.n1, tt.n2, got, tt.want)
		}
		a, b := make([]float64, tt.n1), make([]float64, tt.n2)
		for i := range a {
			a[i] = float64(i)
		}
		for i := range b {
			b[i] = float64(100 + i)
		}
		if p := 2 * uGreater(a, b); math.Abs(p-tt.want) > 1e-12 {
			t.Errorf("separated %dv%d: p %v, want MinP %v", tt.n1, tt.n2, p, tt.want)
		}
	}
}

func TestParseThreshold(t *testing.T) {
	tests := []struct {
		expr    string
		metric  string
		op      string
		value   float64
		wantErr string
	}{
		{"cycle.p99<2ms", "cycle.p99", "<", 2000, ""},
		{"cycles_per_s>20000", "cycles_per_s", ">", 20000, ""},
		{"violations==0", "violations", "==", 0, ""},
		{"acquire.p50 <= 500us", "acquire.p50", "<=", 500, ""},
		{"redlock/*/auto/*:cycle.p999<1s", "cycle.p999", "<", 1e6, ""},
		{"cycle.p99<2", "cycle.p99", "<", 2, ""},
		{"cycles_per_s>2ms", "", "", 0, "not a latency"},
		{"nonsense<1", "", "", 0, "unknown metric"},
		{"cycle.p99", "", "", 0, "want METRIC OP VALUE"},
		{"cycle.p99<fast", "", "", 0, "bad value"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			th, err := ParseThreshold(tt.expr)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || th.Metric != tt.metric || th.Op != tt.op || th.Value != tt.value {
				t.Fatalf("%+v %v", th, err)
			}
		})
	}
}

// run is a plausible run of name: counts that add up, cycles/s and the
// p99 of cycle.
func run(name string, cyclesPerS, p99 float64) schema.Run {
	return schema.Run{Name: name, DurationS: 1, Throughput: schema.Throughput{CyclesPerS: cyclesPerS},
		Counts:    schema.Counts{Attempts: 100, Acquired: 100, Cycles: 100},
		LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 100, P99: p99}}}
}

// runs are n runs of name around cyclesPerS and p99, each ±spread apart
// in a fixed pattern (samples with noise, deterministically).
func runs(name string, n int, cyclesPerS, p99, spread float64) []schema.Run {
	pattern := []float64{0, 1, -1, 0.5, -0.5, 0.8, -0.8, 0.2, -0.2, 0.6, -0.6}
	out := make([]schema.Run, n)
	for i := range out {
		f := 1 + spread*pattern[i%len(pattern)]
		out[i] = run(name, cyclesPerS*f, p99/f)
	}
	return out
}

func TestGate(t *testing.T) {
	th := func(s string) Threshold { x, _ := ParseThreshold(s); return x }
	cur := runs("a", 8, 10000, 1000, 0.02)
	withoutCycle := runs("a", 8, 10000, 1000, 0.02)
	for i := range withoutCycle {
		withoutCycle[i].LatencyUS = nil
	}
	tests := []struct {
		name       string
		cur, base  []schema.Run
		thresholds []Threshold
		outcome    Decision
		check      string // a row with that outcome (for pass: every row)
	}{
		{"the same samples", cur, runs("a", 8, 10000, 1000, 0.02), nil, pass, ""},
		{"one run a side cannot decide", cur[:1], []schema.Run{run("a", 13000, 1000)}, nil, Inconclusive, "cycles_per_s"},
		{"30% drop", cur, runs("a", 8, 14300, 1000, 0.02), nil, Regressed, "cycles_per_s"},
		{"3% drop within 10% tolerance", cur, runs("a", 8, 10300, 1000, 0.01), nil, pass, ""},
		{"p99 up 50%", runs("a", 8, 10000, 1500, 0.02), cur, nil, Regressed, "cycle.p99"},
		{"15% drop in 30% noise", runs("a", 8, 8500, 1000, 0.3), runs("a", 8, 10000, 1000, 0.3), nil, Inconclusive, "cycles_per_s"},
		{"threshold breach", cur, nil, []Threshold{th("cycle.p99<0.5ms")}, Regressed, "cycle.p99<0.5ms"},
		{"threshold holds", cur, nil, []Threshold{th("cycle.p99<2ms"), th("violations==0"), th("error_rate<0.01")}, pass, ""},
		{"threshold on an op the run never recorded", cur, nil, []Threshold{th("extend.p99<2ms")}, Regressed, "extend.p99<2ms"},
		{"threshold matching no run", cur, nil, []Threshold{th("etcd/*:cycle.p99<2ms")}, Regressed, "etcd/*:cycle.p99<2ms"},
		{"run missing from current", cur, append(runs("a", 8, 10000, 1000, 0.02), run("b", 1, 1)), nil, Regressed, "baseline"},
		{"baseline without the compared latency", cur, withoutCycle, nil, Inconclusive, "cycle.p99"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := DefaultOptions()
			opt.Thresholds = tt.thresholds
			res := Judge(tt.cur, tt.base, opt)
			if res.Decision != tt.outcome || res.Failed != (tt.outcome == Regressed) {
				t.Fatalf("outcome %v (failed %v), want %v: %+v", res.Decision, res.Failed, tt.outcome, res.Rows)
			}
			var buf bytes.Buffer
			if err := Write(&buf, res, true); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), "gate: "+strings.ToUpper(tt.outcome.String())) {
				t.Fatalf("output does not say %v:\n%s", tt.outcome, buf.String())
			}
			if tt.check == "" {
				return
			}
			for _, r := range res.Rows {
				if r.Decision == tt.outcome && r.Check == tt.check {
					return
				}
			}
			t.Fatalf("no %v row for %q: %+v", tt.outcome, tt.check, res.Rows)
		})
	}
}

// TestHolm: adjusted p-values against hand-computed ones.
func TestHolm(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct{ ps, want []float64 }{
		{nil, []float64{}},
		{[]float64{0.2}, []float64{0.2}},
		// sorted 0.01, 0.03, 0.04 of m=3: 3×0.01, 2×0.03, max(0.06, 1×0.04)
		{[]float64{0.01, 0.04, 0.03, nan}, []float64{0.03, 0.06, 0.06, nan}},
		{[]float64{0.5, 0.6}, []float64{1, 1}},
	} {
		got := holm(tc.ps)
		for i := range tc.want {
			if !(math.Abs(got[i]-tc.want[i]) < 1e-12 || math.IsNaN(got[i]) && math.IsNaN(tc.want[i])) {
				t.Errorf("Holm(%v) = %v, want %v", tc.ps, got, tc.want)
				break
			}
		}
	}
}

// TestJudgeHolm: a change that one metric's test shows alone is not called
// a regression when it is one of many metrics judged, each with the same
// evidence (4 runs a side fully apart: one-sided p = 1/70 each).
func TestJudgeHolm(t *testing.T) {
	opt := DefaultOptions()
	for _, tc := range []struct {
		names   []string
		outcome Decision
	}{
		{[]string{"a"}, Regressed},
		{[]string{"a", "b", "c", "d"}, Inconclusive},
	} {
		var cur, base []schema.Run
		for _, n := range tc.names {
			cur = append(cur, runs(n, 4, 5000, 1000, 0.01)...)
			base = append(base, runs(n, 4, 10000, 1000, 0.01)...)
		}
		for i := range cur { // p99 alike on both sides: only cycles/s is tested
			cur[i].LatencyUS, base[i].LatencyUS = nil, nil
		}
		opt.LatencyOp = "extend"
		v := Judge(cur, base, opt)
		if v.Decision != tc.outcome {
			t.Errorf("%d runs: %v, want %v: %+v", len(tc.names), v.Decision, tc.outcome, v.Rows)
		}
	}
}

// TestShiftTest: the Hodges–Lehmann shift, its interval and the one-sided
// tests on samples whose answers are known.
func TestShiftTest(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	b := make([]float64, len(a))
	for i, x := range a {
		b[i] = x + 10
	}
	s := shiftTest(a, b, 12, 0.05)
	// 8 v 8: P(U ≤ 13) = 0.0249 (tables), so the interval is the 14th
	// smallest and largest of the 64 differences: 10 − 3 and 10 + 3.
	if s.Est != 10 || s.Lo != 7 || s.Hi != 13 {
		t.Errorf("shift %v [%v, %v], want 10 [7, 13]", s.Est, s.Lo, s.Hi)
	}
	if want := 1 / 12870.0; math.Abs(s.PAbove-want) > 1e-12 {
		t.Errorf("p of no rise %v, want %v (every b above every a)", s.PAbove, want)
	}
	if s.PBelow < 0.05 {
		t.Errorf("p of a rise of 12 or more: %v; a shift of 10 with spread 7 cannot show it below 12", s.PBelow)
	}
	if s := shiftTest(a, a, 5, 0.05); s.Est != 0 || s.PAbove < 0.4 || s.PBelow > 0.01 {
		t.Errorf("a against itself: %+v, want shift 0, no rise, shown below 5", s)
	}
}

// TestPairedShiftTest: the signed-rank shift of pairs whose answers are
// known, and the pairing's point: a load shared by each pair cancels.
func TestPairedShiftTest(t *testing.T) {
	load := []float64{1, 5, 2, 8, 3, 9, 4, 7} // swings shared by each pair
	a, b := make([]float64, len(load)), make([]float64, len(load))
	for i, l := range load {
		a[i], b[i] = l, l+0.1+0.01*float64(i%3)
	}
	s := pairedShiftTest(a, b, 0.5, 0.05)
	if want := 1 / 256.0; math.Abs(s.PAbove-want) > 1e-12 {
		t.Errorf("p of no rise %v, want %v (every pair rose)", s.PAbove, want)
	}
	if s.PBelow > 1/256.0+1e-12 || s.Est < 0.099 || s.Est > 0.121 || !(s.Lo >= 0.099 && s.Hi <= 0.121) {
		t.Errorf("%+v: want a shift in [0.1, 0.12] shown below 0.5", s)
	}
	if u := shiftTest(a, b, 0.5, 0.05); u.PAbove < 0.3 {
		t.Errorf("unpaired, the shared load hides the rise: p %v", u.PAbove)
	}
	// wDist: 3 pairs, T+ over 0…6 with counts 1 1 1 2 1 1 1 of 8.
	want := []float64{1, 1, 1, 2, 1, 1, 1}
	for i, p := range wDist(3) {
		if math.Abs(p*8-want[i]) > 1e-12 {
			t.Fatalf("wDist(3) = %v, want %v/8", wDist(3), want)
		}
	}
}
