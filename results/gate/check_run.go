package gate

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/lockbench/lockbench/results"
)

// CheckRun returns the first impossible value of r: a negative or
// non-finite count, latency, throughput, duration or ratio. A verdict on such
// a run would be a verdict on garbage (a hand-edited or corrupt summary), so
// the gate refuses it. Backend-specific extras and the validity margin (which
// can honestly be negative: a grant that arrived after its validity ended)
// are not checked.
func CheckRun(r results.Run) error {
	if _, err := json.Marshal(r); err != nil {
		return fmt.Errorf("impossible value: %v", err) // NaN or ±Inf
	}
	var bad []string
	for p, v := range flatten(r) {
		if strings.HasPrefix(p, "extra.") || strings.HasPrefix(p, "validity_margin_us.") {
			continue
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			bad = append(bad, fmt.Sprintf("%s %v", p, v))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("impossible value %s", bad[0])
}

// sample reads metric of r for a verdict: false when r has no such field,
// or when it is a latency of an op r never recorded.
func sample(r results.Run, metric string) (float64, bool) {
	v, err := Metric(r, metric)
	if err != nil {
		return 0, false
	}
	p, _ := resolveMetric(metric)
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
