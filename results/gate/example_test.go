package gate_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results/gate"
	"github.com/lockbench/lockbench/results/schema"
)

// A CI gate in a program: six runs of the current build against six of
// the baseline and a threshold, and bad input as a field-named error.
func ExampleCheck() {
	summary := func(started int64, cyclesPerS, p99 float64) gate.Source {
		return gate.Source{Path: fmt.Sprint(started, ".json"), Summary: &schema.Summary{
			Schema: schema.Schema, Started: time.Unix(started, 0),
			Runs: []schema.Run{{Name: "redlock/rueidis/pipeline/contended", DurationS: 1,
				Throughput: schema.Throughput{CyclesPerS: cyclesPerS},
				Counts:     schema.Counts{Attempts: 1000, Acquired: 1000, Cycles: 1000},
				LatencyUS:  map[string]schema.Percentiles{"cycle": {Count: 1000, P99: p99}}}},
		}}
	}
	var in gate.Input
	for i, noise := range []float64{0, 0.02, -0.02, 0.01, -0.01, 0.03} {
		in.Baseline = append(in.Baseline, summary(int64(i), 10000*(1+noise), 1400*(1-noise)))
		in.Current = append(in.Current, summary(int64(100+i), 7000*(1+noise), 1400*(1+noise)))
	}
	opt := gate.DefaultOptions()
	th, _ := gate.ParseThreshold("cycle.p99<2ms")
	opt.Thresholds = append(opt.Thresholds, th)
	v, err := gate.Check(in, opt)
	if err != nil {
		panic(err)
	}
	for _, r := range v.Rows {
		fmt.Println(r.Check, r.Decision)
	}
	fmt.Println("gate:", v.Decision)

	opt.LatencyTol = -1
	_, err = gate.Check(in, opt)
	var fe *gate.FieldError
	fmt.Println(errors.As(err, &fe), fe.Field)
	// Output:
	// cycle.p99<2ms pass
	// attempts_per_cycle pass
	// cycles_per_s regressed
	// cycle.p99 pass
	// gate: regressed
	// true LatencyTol
}
