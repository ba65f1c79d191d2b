package gate

import (
	"strings"
)

// sample reads metric of r for a verdict: false when r has no such field,
// when it is a latency of an op r never recorded, or the masters' CPU of a
// run that could not read it.
func sample(m measured, metric string) (float64, bool) {
	r := m.run
	p, ok := resolveMetric(metric)
	if !ok && strings.HasPrefix(metric, "extra.") {
		p = metric
	}
	v, ok := m.fields[p]
	if !ok {
		return 0, false
	}
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
