package stats

import (
	"math"
	"sort"

	"github.com/lockbench/lockbench/results/schema"
)

// Repeated runs: compare --repeat N measures every cell once per round
// (Run.Repeat 1…N), so the runs of one name are samples of one figure, as
// the gate reads them. A table shows one row per name: MedianRun.

// Repeats groups runs into rows, in the order their names first appear:
// the runs of one name that carry a round (Repeat > 0) together, every
// other run alone.
func Repeats(runs []schema.Run) [][]schema.Run {
	var rows [][]schema.Run
	at := map[string]int{} // name → its row, for runs with a round
	for _, r := range runs {
		if r.Repeat == 0 {
			rows = append(rows, []schema.Run{r})
			continue
		}
		if i, ok := at[r.Name]; ok {
			rows[i] = append(rows[i], r)
			continue
		}
		at[r.Name] = len(rows)
		rows = append(rows, []schema.Run{r})
	}
	return rows
}

// Median of xs; NaN for none. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// Samples are the runs of a row a median is taken over: the complete ones,
// or the cut-short ones when no round of it completed (Ctrl-C in its
// first round).
func Samples(runs []schema.Run) []schema.Run {
	var done []schema.Run
	for _, r := range runs {
		if !r.Interrupted {
			done = append(done, r)
		}
	}
	if len(done) == 0 {
		return runs
	}
	return done
}

// MedianRate is the median cycles/s of runs' samples.
func MedianRate(runs []schema.Run) float64 {
	return Median(rates(Samples(runs)))
}

// Spread is how far the sample farthest from the median cycles/s lies
// from it, as a fraction of the median: every round was within ±Spread.
// 0 for one sample or a median of 0.
func Spread(runs []schema.Run) float64 {
	xs := rates(Samples(runs))
	m := Median(xs)
	if len(xs) < 2 || !(m > 0) {
		return 0
	}
	far := 0.0
	for _, x := range xs {
		far = max(far, math.Abs(x-m))
	}
	return far / m
}

// MedianRun is one row for the runs of one name. A single run is itself.
// Of several, the row is the sample whose cycles/s is the median (the
// lower middle one of an even count) with, in place of its own, the
// medians of cycles/s, attempts/s and the ratios (VsSequential,
// OfCeiling), and the counts, the measured time and the shares made of
// them (split brain, errors, retries) totalled over every run, so a
// violation or an error in any round shows. Its latencies, cost and
// fairness are that median round's. It is interrupted when no round
// completed.
func MedianRun(runs []schema.Run) schema.Run {
	if len(runs) == 1 {
		return runs[0]
	}
	s := append([]schema.Run(nil), Samples(runs)...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].Throughput.CyclesPerS < s[j].Throughput.CyclesPerS })
	row := s[(len(s)-1)/2]
	row.Throughput.CyclesPerS = Median(rates(s))
	row.Throughput.AttemptsPerS = Median(collect(s, func(r schema.Run) (float64, bool) { return r.Throughput.AttemptsPerS, true }))
	row.VsSequential = medianOf(s, func(r schema.Run) *float64 { return r.VsSequential })
	row.OfCeiling = medianOf(s, func(r schema.Run) *float64 { return r.OfCeiling })
	row.OfFloor = medianOf(s, func(r schema.Run) *float64 { return r.OfFloor })
	row.Counts, row.DurationS, row.MissedStarts = schema.Counts{}, 0, 0
	for _, r := range runs {
		row.Counts = row.Counts.Plus(r.Counts)
		row.DurationS += r.DurationS
		row.MissedStarts += r.MissedStarts
	}
	row.SplitBrainRate, row.RetriesPerAcquire = row.Counts.Rates()
	return row
}

// MedianRuns is MedianRun of every row of Repeats: one run per name.
func MedianRuns(runs []schema.Run) []schema.Run {
	rows := Repeats(runs)
	out := make([]schema.Run, len(rows))
	for i, row := range rows {
		out[i] = MedianRun(row)
	}
	return out
}

// Rounds are the fewest and most runs a row of Repeats has.
func Rounds(runs []schema.Run) (fewest, most int) {
	for i, row := range Repeats(runs) {
		if i == 0 || len(row) < fewest {
			fewest = len(row)
		}
		most = max(most, len(row))
	}
	return fewest, most
}

func rates(runs []schema.Run) []float64 {
	return collect(runs, func(r schema.Run) (float64, bool) { return r.Throughput.CyclesPerS, true })
}

func collect(runs []schema.Run, f func(schema.Run) (float64, bool)) []float64 {
	out := make([]float64, 0, len(runs))
	for _, r := range runs {
		if v, ok := f(r); ok {
			out = append(out, v)
		}
	}
	return out
}

// medianOf is the median of an optional measure over the runs that have
// it; nil when none has.
func medianOf(runs []schema.Run, f func(schema.Run) *float64) *float64 {
	xs := collect(runs, func(r schema.Run) (float64, bool) {
		if v := f(r); v != nil {
			return *v, true
		}
		return 0, false
	})
	if len(xs) == 0 {
		return nil
	}
	m := Median(xs)
	return &m
}
