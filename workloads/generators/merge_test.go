package generators

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

// snapshotOf is a generator's snapshot whose cycle histogram holds samples.
func snapshotOf(t *testing.T, samples []int64) snapshot {
	t.Helper()
	h := record.NewHistogram()
	for _, v := range samples {
		if err := h.RecordValue(v); err != nil {
			t.Fatal(err)
		}
	}
	b, err := encodeHist(h)
	if err != nil {
		t.Fatal(err)
	}
	return snapshot{ElapsedNS: int64(time.Second), Cycles: int64(len(samples)), Hists: map[string][]byte{schema.OpCycle.String(): b}}
}

// sig3 rounds v to three significant figures.
func sig3(v float64) float64 {
	if v == 0 {
		return 0
	}
	p := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*p) / p
}

// TestMergedPercentilesAreOneHistogramsProperty: for random latency
// distributions split at random over 1–8 generators, the merged
// percentiles of their published snapshots are those of one histogram of
// every sample, to three significant figures (in fact exactly: the HDR
// merge adds counts bucket by bucket), and the merged counts add up.
func TestMergedPercentilesAreOneHistogramsProperty(t *testing.T) {
	for seed := range uint64(100) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 7))
			gens := 1 + rnd.IntN(8)
			split := make([][]int64, gens)
			all := record.NewHistogram()
			n := 1 + rnd.IntN(5000)
			scale := math.Pow(10, 2+4*rnd.Float64()) // 100 ns … 1 s medians
			for range n {
				v := int64(scale * math.Exp(rnd.NormFloat64()*(0.2+2*rnd.Float64())))
				v = min(max(v, record.LowestNS), record.HighestNS)
				g := rnd.IntN(gens)
				split[g] = append(split[g], v)
				if err := all.RecordValue(v); err != nil {
					t.Fatal(err)
				}
			}
			var snaps []snapshot
			for _, s := range split {
				snaps = append(snaps, snapshotOf(t, s))
			}
			mg := mergeSnapshots(snaps)
			got, want := mg.Run.LatencyUS[schema.OpCycle.String()], record.Summarize(all)
			if mg.Run.Counts.Cycles != int64(n) || got.Count != int64(n) {
				t.Fatalf("merged %d cycles, histogram count %d; want %d", mg.Run.Counts.Cycles, got.Count, n)
			}
			for _, q := range []struct {
				name      string
				got, want float64
			}{{"p50", got.P50, want.P50}, {"p90", got.P90, want.P90}, {"p99", got.P99, want.P99}, {"p999", got.P999, want.P999}, {"max", got.Max, want.Max}} {
				if sig3(q.got) != sig3(q.want) {
					t.Errorf("%d samples over %d generators: merged %s %v µs, one histogram's %v µs", n, gens, q.name, q.got, q.want)
				}
			}
		})
	}
}

// TestMergeSnapshotsThroughputIsTheSumOfRates: each generator's rate is
// its cycles over its own elapsed time; the merged rate is their sum.
func TestMergeSnapshotsThroughputIsTheSumOfRates(t *testing.T) {
	snaps := []snapshot{{ElapsedNS: int64(2 * time.Second), Cycles: 2000}, {ElapsedNS: int64(time.Second), Cycles: 500}, {}}
	mg := mergeSnapshots(snaps)
	if mg.Run.Throughput.CyclesPerS != 1500 || mg.Run.Counts.Cycles != 2500 || mg.Reporting != 3 {
		t.Fatalf("merged %v cycles/s, %d cycles, %d reporting; want 1500, 2500, 3", mg.Run.Throughput.CyclesPerS, mg.Run.Counts.Cycles, mg.Reporting)
	}
}
