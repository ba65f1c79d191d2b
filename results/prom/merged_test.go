package prom

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lockbench/lockbench/results/schema"
)

// TestMergedSeries: the merged figures are exported under their own names
// with scope="merged" and the generators count, the quantiles in seconds;
// a cell measured again takes over its series from zero.
func TestMergedSeries(t *testing.T) {
	e := New()
	l := Labels{Backend: "redlock", Client: "goredis", Mux: "fanout", Workload: "contended", Masters: 3}
	c := e.Merged(l, 4)
	c.Set(Merged{Reporting: 4, Cycles: 1200, Attempts: 1500, CyclesPerS: 400,
		LatencyUS: map[string]schema.Percentiles{"cycle": {Count: 1200, Mean: 500, P50: 400, P90: 900, P99: 2000, P999: 4000}}})
	want := `
# HELP lockbench_merged_cycles_total Lock cycles completed in the measured window by every generator of the run together, as of each one's latest published second (after the windows: the merged run's).
# TYPE lockbench_merged_cycles_total counter
lockbench_merged_cycles_total{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",scope="merged",workload="contended"} 1200
# HELP lockbench_merged_cycles_per_second Cycles per second of the run: the sum of each generator's cycles over its own elapsed measured window (what the merged progress line shows).
# TYPE lockbench_merged_cycles_per_second gauge
lockbench_merged_cycles_per_second{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",scope="merged",workload="contended"} 400
# HELP lockbench_merged_op_duration_seconds Op latency over every generator of the run: quantiles of the generators' HDR histograms merged exactly (3 significant figures).
# TYPE lockbench_merged_op_duration_seconds summary
lockbench_merged_op_duration_seconds{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",op="cycle",scope="merged",workload="contended",quantile="0.5"} 0.0004
lockbench_merged_op_duration_seconds{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",op="cycle",scope="merged",workload="contended",quantile="0.9"} 0.0009
lockbench_merged_op_duration_seconds{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",op="cycle",scope="merged",workload="contended",quantile="0.99"} 0.002
lockbench_merged_op_duration_seconds{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",op="cycle",scope="merged",workload="contended",quantile="0.999"} 0.004
lockbench_merged_op_duration_seconds_sum{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",op="cycle",scope="merged",workload="contended"} 0.6
lockbench_merged_op_duration_seconds_count{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",op="cycle",scope="merged",workload="contended"} 1200
`
	if err := testutil.CollectAndCompare(e, strings.NewReader(want), MetricMergedCycles, metricMergedRate, MetricMergedDuration); err != nil {
		t.Fatal(err)
	}
	again := e.Merged(l, 4)
	if again != c {
		t.Fatal("the same cell measured again got series of its own: a scrape would see them twice")
	}
	reset := `
# HELP lockbench_merged_cycles_total Lock cycles completed in the measured window by every generator of the run together, as of each one's latest published second (after the windows: the merged run's).
# TYPE lockbench_merged_cycles_total counter
lockbench_merged_cycles_total{backend="redlock",client="goredis",generators="4",masters="3",mux="fanout",scope="merged",workload="contended"} 0
`
	if err := testutil.CollectAndCompare(e, strings.NewReader(reset), MetricMergedCycles); err != nil {
		t.Errorf("a cell measured again: %v", err)
	}
	if problems, err := testutil.CollectAndLint(e); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}
