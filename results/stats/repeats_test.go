package stats

import (
	"math"
	"testing"

	"github.com/lockbench/lockbench/results/schema"
)

// round is one round of a cell: its name, round and cycles/s.
func round(name string, repeat int, cps float64) schema.Run {
	return schema.Run{Name: name, Repeat: repeat, Throughput: schema.Throughput{CyclesPerS: cps, AttemptsPerS: 2 * cps}, DurationS: 1,
		Counts: schema.Counts{Attempts: int64(2 * cps), Acquired: int64(cps), Busy: int64(cps / 2), SplitBrain: int64(cps / 2), Cycles: int64(cps)}}
}

func ptr(v float64) *float64 { return &v }

// TestMedianAndSpread: the median of odd and even counts, and the spread
// as the farthest round from it, complete rounds only.
func TestMedianAndSpread(t *testing.T) {
	cut := round("a", 3, 10)
	cut.Interrupted = true
	for _, tc := range []struct {
		name           string
		runs           []schema.Run
		median, spread float64
	}{
		{"one", []schema.Run{round("a", 1, 100)}, 100, 0},
		{"three", []schema.Run{round("a", 1, 90), round("a", 2, 100), round("a", 3, 120)}, 100, 0.2},
		{"two: the mean of the middle", []schema.Run{round("a", 1, 90), round("a", 2, 110)}, 100, 0.1},
		{"four", []schema.Run{round("a", 1, 80), round("a", 2, 100), round("a", 3, 100), round("a", 4, 104)}, 100, 0.2},
		{"a cut-short round is no sample", []schema.Run{round("a", 1, 90), round("a", 2, 110), cut}, 100, 0.1},
		{"only a cut-short round: it is the sample", []schema.Run{cut}, 10, 0},
		{"median 0", []schema.Run{round("a", 1, 0), round("a", 2, 0), round("a", 3, 5)}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if m := MedianRate(tc.runs); math.Abs(m-tc.median) > 1e-9 {
				t.Errorf("median %v, want %v", m, tc.median)
			}
			if s := Spread(tc.runs); math.Abs(s-tc.spread) > 1e-9 {
				t.Errorf("spread %v, want %v", s, tc.spread)
			}
		})
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("median of nothing is not NaN")
	}
}

// TestRepeats: runs of one name with a round are one row, in the order
// names first appear; runs without a round stay alone, even of one name.
func TestRepeats(t *testing.T) {
	runs := []schema.Run{round("b", 1, 1), round("a", 1, 1), {Name: "x"}, round("a", 2, 1), {Name: "x"}, round("b", 2, 1)}
	rows := Repeats(runs)
	want := []struct {
		name string
		n    int
	}{{"b", 2}, {"a", 2}, {"x", 1}, {"x", 1}}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	for i, w := range want {
		if rows[i][0].Name != w.name || len(rows[i]) != w.n {
			t.Errorf("row %d: %s × %d, want %s × %d", i, rows[i][0].Name, len(rows[i]), w.name, w.n)
		}
	}
	if f, m := Rounds(runs[:4]); f != 1 || m != 2 {
		t.Errorf("rounds %d–%d, want 1–2", f, m)
	}
}

// TestMedianRun: the row of a repeated cell has the median rates and
// ratios, the median round's latencies, and counts totalled over every
// round, the cut-short one too, so a violation in any round shows.
func TestMedianRun(t *testing.T) {
	a, b, c := round("a", 1, 90), round("a", 2, 120), round("a", 3, 100)
	a.VsSequential, b.VsSequential, c.VsSequential = ptr(0.9), ptr(1.2), ptr(1.0)
	c.LatencyUS = map[string]schema.Percentiles{"cycle": {Count: 1, P99: 7}}
	cut := round("a", 4, 500)
	cut.Interrupted, cut.Counts.Violations = true, 1
	row := MedianRun([]schema.Run{a, b, c, cut})
	if row.Throughput.CyclesPerS != 100 || row.Throughput.AttemptsPerS != 200 || row.LatencyUS["cycle"].P99 != 7 {
		t.Errorf("row %+v: want the median round (100/s, p99 7)", row)
	}
	if row.VsSequential == nil || *row.VsSequential != 1.0 || row.OfCeiling != nil {
		t.Errorf("ratios %v %v: want the median 1.0 and no ceiling", row.VsSequential, row.OfCeiling)
	}
	if row.Counts.Cycles != 90+120+100+500 || row.Counts.Violations != 1 || row.DurationS != 4 || row.Interrupted {
		t.Errorf("counts %+v over %v s (interrupted %v): want every round's totals, complete", row.Counts, row.DurationS, row.Interrupted)
	}
	if row.SplitBrainRate != 0.5 || math.Abs(row.RetriesPerAcquire-1) > 0.01 {
		t.Errorf("split %v, retries %v: want the totals' 0.5 and 1", row.SplitBrainRate, row.RetriesPerAcquire)
	}
	even := MedianRun([]schema.Run{a, b})
	if even.Throughput.CyclesPerS != 105 || even.Repeat != a.Repeat || *even.VsSequential != 1.05 {
		t.Errorf("even: %v/s from round %d, ratio %v: want 105 from the lower middle, 1.05", even.Throughput.CyclesPerS, even.Repeat, *even.VsSequential)
	}
	if one := MedianRun([]schema.Run{cut}); one.Counts.Cycles != 500 || !one.Interrupted {
		t.Errorf("a single run changed: %+v", one)
	}
}

// TestRunIDRounds: the rounds of one cell in one summary are distinct
// runs; a run measured once keeps the identity it always had.
func TestRunIDRounds(t *testing.T) {
	s := &schema.Summary{Host: schema.Host{Hostname: "h"}}
	once, r1, r2 := schema.RunID(s, schema.Run{Name: "a"}), schema.RunID(s, round("a", 1, 1)), schema.RunID(s, round("a", 2, 1))
	if r1 == r2 || once == r1 || once != "0001-01-01T00:00:00Z h a" {
		t.Errorf("ids %q, %q, %q: want the rounds distinct and the single run's unchanged", once, r1, r2)
	}
}
