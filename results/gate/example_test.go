package gate_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/results"
	"github.com/lockbench/lockbench/results/gate"
)

// A CI gate in a program: the current build's summary against a threshold
// and a baseline, and bad input as a field-named error.
func ExampleCheck() {
	summary := func(started int64, cyclesPerS, p99 float64) gate.Source {
		return gate.Source{Path: fmt.Sprint(started, ".json"), Summary: &results.Summary{
			Schema: results.Schema, Started: time.Unix(started, 0),
			Runs: []results.Run{{Name: "redlock/rueidis/pipeline/contended",
				Throughput: results.Throughput{CyclesPerS: cyclesPerS},
				LatencyUS:  map[string]results.Percentiles{"cycle": {Count: 1000, P99: p99}}}},
		}}
	}
	opt := gate.DefaultOptions()
	th, _ := gate.ParseThreshold("cycle.p99<2ms")
	opt.Thresholds = append(opt.Thresholds, th)
	in := gate.Input{Current: []gate.Source{summary(2, 7000, 1500)}, Baseline: []gate.Source{summary(1, 10000, 1400)}}
	v, err := gate.Check(in, opt)
	if err != nil {
		panic(err)
	}
	for _, r := range v.Rows {
		fmt.Println(r.Check, r.Pass)
	}
	fmt.Println("failed:", v.Failed)

	opt.LatencyTol = -1
	_, err = gate.Check(in, opt)
	var fe *gate.FieldError
	fmt.Println(errors.As(err, &fe), fe.Field)
	// Output:
	// cycle.p99<2ms true
	// cycles_per_s false
	// cycle.p99 true
	// failed: true
	// true LatencyTol
}
