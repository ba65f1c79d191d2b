package gate

import (
	"math"
	"strings"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// rounds is one summary of a compare --repeat: every name measured once
// per round (Repeat 1…), at the given cycles/s.
func rounds(path string, t int64, cps map[string][]float64) Source {
	var runs []schema.Run
	for name, xs := range cps {
		for i, x := range xs {
			r := run(name, x, 1000)
			r.Repeat = i + 1
			runs = append(runs, r)
		}
	}
	return src(path, t, runs...)
}

// TestCheckRepeatSummary: one compare --repeat summary is a side of the
// gate on its own: its rounds of a name are the samples (--count N is
// met by N rounds), their medians are compared and the U test runs on
// them; given twice, it is refused as the same runs.
func TestCheckRepeatSummary(t *testing.T) {
	base := rounds("base.json", 1, map[string][]float64{"a": {1000, 1010, 990, 1005}, "b": {500, 510, 490, 505}})
	tests := []struct {
		name    string
		cur     []Source
		count   int
		err     string // in a refusal
		failed  []string
		samples [2]int
	}{
		{"same speed", []Source{rounds("cur.json", 2, map[string][]float64{"a": {1002, 995, 1008, 999}, "b": {502, 498, 507, 495}})}, 4, "", nil, [2]int{4, 4}},
		{"a halved", []Source{rounds("cur.json", 2, map[string][]float64{"a": {500, 505, 495, 502}, "b": {502, 498, 507, 495}})}, 4, "", []string{"a cycles_per_s"}, [2]int{4, 4}},
		{"too few rounds for --count", []Source{rounds("cur.json", 2, map[string][]float64{"a": {1000, 1000}, "b": {500, 500}})}, 4, `has 2 run(s)`, nil, [2]int{}},
		{"the baseline again", []Source{base}, 1, "is the same run as in", nil, [2]int{}},
		{"one summary twice", []Source{rounds("c.json", 2, map[string][]float64{"a": {1000}}), rounds("copy.json", 2, map[string][]float64{"a": {1000}})}, 1, "is the same run as in", nil, [2]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Current: tc.cur, Baseline: []Source{base}, Count: tc.count}
			if tc.name == "the baseline again" {
				in.Current = []Source{base, base}
			}
			v, err := Check(in, DefaultOptions())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(v.FailedChecks(), ","); got != strings.Join(tc.failed, ",") {
				t.Errorf("failed %q, want %q: %+v", got, tc.failed, v.Rows)
			}
			for _, r := range v.Rows {
				if r.Check != "cycles_per_s" {
					continue // the same on every sample: nothing to test
				}
				if r.Samples != tc.samples || math.IsNaN(r.P) {
					t.Errorf("%s %s: samples %v, p %v: want %v rounds a side, U-tested", r.Run, r.Check, r.Samples, r.P, tc.samples)
				}
			}
		})
	}
}
