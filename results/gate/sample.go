package gate

import (
	"strings"

	"github.com/lockbench/lockbench/results"
)

// sample reads metric of r for a verdict: false when r has no such field,
// when it is a latency of an op r never recorded, or the masters' CPU of a
// run that could not read it.
func sample(r results.Run, metric string) (float64, bool) {
	v, err := Metric(r, metric)
	if err != nil {
		return 0, false
	}
	p, _ := resolveMetric(metric)
	if p == "cost.server_cpu_us_per_cycle" && r.Cost != nil && r.Cost.ServerCPUSource == "" {
		return 0, false
	}
	for _, prefix := range []string{"latency_us.", "service_us."} {
		if rest, ok := strings.CutPrefix(p, prefix); ok {
			op, _, _ := strings.Cut(rest, ".")
			m := r.LatencyUS
			if prefix == "service_us." {
				m = r.ServiceUS
			}
			if m[op].Count == 0 {
				return 0, false
			}
		}
	}
	return v, true
}
