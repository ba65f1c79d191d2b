package gate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results"
)

func TestMannWhitney(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []float64
		u      float64
		pLo    float64
		pHi    float64
		approx bool
	}{
		// exact: 4 vs 4 fully separated: p = 2/70
		{"separated 4v4", []float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 0, 0.0285, 0.0286, false},
		{"separated 3v3 cannot reach 0.05", []float64{1, 2, 3}, []float64{4, 5, 6}, 0, 0.099, 0.101, false},
		{"interleaved", []float64{1, 3, 5, 7}, []float64{2, 4, 6, 8}, 6, 0.68, 0.69, false},
		{"all equal", []float64{5, 5, 5}, []float64{5, 5, 5}, 4.5, 1, 1, true},
		// scipy.stats.mannwhitneyu([1,2,2,3,4],[3,4,5,5,6], method='asymptotic') p≈0.0345 (U=2, continuity-corrected)
		{"ties, normal approximation", []float64{1, 2, 2, 3, 4}, []float64{3, 4, 5, 5, 6}, 2, 0.0344, 0.0346, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, p := MannWhitney(tt.a, tt.b)
			if u != tt.u || p < tt.pLo || p > tt.pHi {
				t.Fatalf("U=%v p=%v, want U=%v p in [%v,%v]", u, p, tt.u, tt.pLo, tt.pHi)
			}
			// symmetric
			if _, p2 := MannWhitney(tt.b, tt.a); math.Abs(p-p2) > 1e-12 {
				t.Fatalf("p(a,b)=%v p(b,a)=%v", p, p2)
			}
		})
	}
}

func TestMinP(t *testing.T) {
	for _, tt := range []struct {
		n1, n2 int
		want   float64
	}{{2, 2, 1.0 / 3}, {3, 3, 0.1}, {4, 4, 2.0 / 70}, {5, 5, 2.0 / 252}} {
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
		if _, p := MannWhitney(a, b); math.Abs(p-tt.want) > 1e-12 {
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

func run(name string, cyclesPerS, p99 float64) results.Run {
	return results.Run{Name: name, Throughput: results.Throughput{CyclesPerS: cyclesPerS},
		LatencyUS: map[string]results.Percentiles{"cycle": {Count: 100, P99: p99}}}
}

func TestGate(t *testing.T) {
	th := func(s string) Threshold { x, _ := ParseThreshold(s); return x }
	cur := []results.Run{run("a", 10000, 1000)}
	tests := []struct {
		name       string
		cur, base  []results.Run
		thresholds []Threshold
		fail       bool
		failCheck  string
	}{
		{"against itself", cur, cur, nil, false, ""},
		{"baseline 30% faster", cur, []results.Run{run("a", 13000, 1000)}, nil, true, "cycles_per_s"},
		{"baseline 5% faster is noise", cur, []results.Run{run("a", 10500, 1000)}, nil, false, ""},
		{"p99 up 50%", cur, []results.Run{run("a", 10000, 650)}, nil, true, "cycle.p99"},
		{"threshold breach", cur, nil, []Threshold{th("cycle.p99<0.5ms")}, true, "cycle.p99<0.5ms"},
		{"threshold holds", cur, nil, []Threshold{th("cycle.p99<2ms"), th("violations==0")}, false, ""},
		{"threshold on an op the run never recorded", cur, nil, []Threshold{th("extend.p99<2ms")}, true, "extend.p99<2ms"},
		{"threshold matching no run", cur, nil, []Threshold{th("etcd/*:cycle.p99<2ms")}, true, "etcd/*:cycle.p99<2ms"},
		{"run missing from current", cur, []results.Run{run("a", 10000, 1000), run("b", 1, 1)}, nil, true, "baseline"},
		{"baseline without the compared latency", cur, []results.Run{{Name: "a", Throughput: results.Throughput{CyclesPerS: 10000}}}, nil, true, "cycle.p99"},
		{"current recorded no cycle (count 0)", []results.Run{{Name: "a", Throughput: results.Throughput{CyclesPerS: 10000},
			LatencyUS: map[string]results.Percentiles{"cycle": {}}}}, cur, nil, true, "cycle.p99"},
		{"threshold on a latency of no samples", []results.Run{{Name: "a", LatencyUS: map[string]results.Percentiles{"release": {}}}}, nil,
			[]Threshold{th("release.p99<1ms")}, true, "release.p99<1ms"},
		{"medians, significant",
			[]results.Run{run("a", 100, 1), run("a", 101, 1), run("a", 99, 1), run("a", 102, 1)},
			[]results.Run{run("a", 150, 1), run("a", 151, 1), run("a", 149, 1), run("a", 152, 1)}, nil, true, "cycles_per_s"},
		{"two a side: medians vs tolerance decide",
			[]results.Run{run("a", 100, 1), run("a", 102, 1)},
			[]results.Run{run("a", 150, 1), run("a", 152, 1)}, nil, true, "cycles_per_s"},
		{"medians, beyond tolerance but not significant",
			[]results.Run{run("a", 100, 1), run("a", 200, 1), run("a", 60, 1), run("a", 300, 1)},
			[]results.Run{run("a", 150, 1), run("a", 90, 1), run("a", 250, 1), run("a", 180, 1)}, nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := DefaultOptions()
			opt.Thresholds = tt.thresholds
			res := Judge(tt.cur, tt.base, opt)
			if res.Failed != tt.fail {
				t.Fatalf("failed=%v, want %v: %+v", res.Failed, tt.fail, res.Rows)
			}
			var buf bytes.Buffer
			if err := Write(&buf, res, true); err != nil {
				t.Fatal(err)
			}
			if tt.fail && !strings.Contains(buf.String(), tt.failCheck) {
				t.Fatalf("output does not name %q:\n%s", tt.failCheck, buf.String())
			}
			for _, r := range res.Rows {
				if !r.Pass && r.Check == tt.failCheck {
					return
				}
			}
			if tt.fail {
				t.Fatalf("no failing row for %q: %+v", tt.failCheck, res.Rows)
			}
		})
	}
}

// TestWriteUnits: a latency's values are printed with their unit, a
// throughput's and a count's without one.
func TestWriteUnits(t *testing.T) {
	th := func(s string) Threshold { x, _ := ParseThreshold(s); return x }
	opt := DefaultOptions()
	opt.Thresholds = []Threshold{th("cycle.p99<2ms"), th("a*:cycle.p99<3ms"), th("violations==0")}
	res := Judge([]results.Run{run("a", 100, 1500)}, []results.Run{run("a", 100, 1400)}, opt)
	var buf bytes.Buffer
	if err := Write(&buf, res, false); err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Rows {
		want := unitOf(r.Check)(r.Current)
		if latency := strings.Contains(r.Check, ".p"); latency != (want == " µs") {
			t.Errorf("%s: unit %q", r.Check, want)
		}
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "cycle.p99") && !strings.Contains(line, "1500.0 µs") {
			t.Errorf("cycle.p99 row without its unit: %q", line)
		}
		if strings.Contains(line, "cycles_per_s") && strings.Contains(line, "µs") {
			t.Errorf("cycles_per_s row with a latency unit: %q", line)
		}
	}
}
