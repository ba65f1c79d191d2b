package gate

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

// Threshold is a k6-style check over a run's JSON fields, e.g.
// "cycle.p99<2ms", "cycles_per_s>20000", "violations==0", optionally
// limited to runs whose name matches a glob: "redlock/*/auto/*:cycle.p99<2ms".
type Threshold struct {
	Expr   string
	Runs   string // glob over run names; "" is every run
	Metric string
	Op     string
	Value  float64 // in the field's own unit (µs for latencies)
}

var thresholdOps = []string{"<=", ">=", "==", "!=", "<", ">"} // longest first

// ParseThresholds parses each of exprs; a bad one is a *FieldError of
// Thresholds with the expression as its value.
func ParseThresholds(exprs []string) ([]Threshold, error) {
	var out []Threshold
	for _, e := range exprs {
		t, err := ParseThreshold(e)
		if err != nil {
			return nil, fielderr.Invalid("Thresholds", e, "%v", err)
		}
		out = append(out, t)
	}
	return out, nil
}

// ParseThreshold reads "[RUNGLOB:]metric OP value[unit]". Latency fields are
// in µs in the JSON; a value on them may carry ns, us, µs, ms or s.
func ParseThreshold(expr string) (Threshold, error) {
	t := Threshold{Expr: expr}
	s := strings.TrimSpace(expr)
	if i := strings.LastIndex(s, ":"); i >= 0 {
		t.Runs, s = s[:i], s[i+1:]
		if _, err := path.Match(t.Runs, ""); err != nil {
			return t, fmt.Errorf("bad run pattern %q: %v", t.Runs, err)
		}
	}
	for _, op := range thresholdOps {
		if i := strings.Index(s, op); i > 0 {
			t.Metric, t.Op = strings.TrimSpace(s[:i]), op
			v, err := parseValue(strings.TrimSpace(s[i+len(op):]))
			if err != nil {
				return t, err
			}
			t.Value = v.v
			if v.time && !isLatency(t.Metric) {
				return t, fmt.Errorf("%q has a time unit but %q is not a latency", expr, t.Metric)
			}
			if _, ok := resolveMetric(t.Metric); !ok && !strings.HasPrefix(t.Metric, "extra.") {
				return t, errUnknownMetric(t.Metric)
			}
			return t, nil
		}
	}
	return t, fmt.Errorf("want METRIC OP VALUE with OP one of < <= > >= == != (e.g. 'cycle.p99<2ms')")
}

type value struct {
	v    float64
	time bool
}

func parseValue(s string) (value, error) {
	units := []struct {
		suffix string
		us     float64
	}{{"ns", 1e-3}, {"µs", 1}, {"us", 1}, {"ms", 1e3}, {"s", 1e6}}
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			f, err := strconv.ParseFloat(strings.TrimSuffix(s, u.suffix), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return value{}, fmt.Errorf("bad value %q", s)
			}
			return value{f * u.us, true}, nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return value{}, fmt.Errorf("bad value %q (a finite number, or a duration like 2ms)", s)
	}
	return value{v: f}, nil
}

func isLatency(metric string) bool {
	p, ok := resolveMetric(metric)
	return ok && (strings.HasPrefix(p, "latency_us.") || strings.HasPrefix(p, "service_us."))
}

// Holds is whether v passes the threshold.
func (t Threshold) Holds(v float64) bool {
	switch t.Op {
	case "<":
		return v < t.Value
	case "<=":
		return v <= t.Value
	case ">":
		return v > t.Value
	case ">=":
		return v >= t.Value
	case "==":
		return v == t.Value
	}
	return v != t.Value
}

// Applies is whether the threshold checks the run called name.
func (t Threshold) Applies(name string) bool {
	if t.Runs == "" {
		return true
	}
	ok, _ := path.Match(t.Runs, name)
	return ok
}

// metricPaths are every numeric field of a Run as dotted JSON paths; ops'
// latencies are listed for every op so a metric resolves even when a run
// did not record it.
var metricPaths = func() []string {
	one := 1.0
	r := schema.Run{LatencyUS: map[string]schema.Percentiles{}, ServiceUS: map[string]schema.Percentiles{},
		Repeat: 1, AddedRTTUS: 1, MissedStarts: 1, Cost: &schema.Cost{}, VsSequential: &one, OfCeiling: &one}
	for _, op := range schema.Ops() {
		r.LatencyUS[op.String()] = schema.Percentiles{}
		r.ServiceUS[op.String()] = schema.Percentiles{}
	}
	var out []string
	for p := range flatten(r) {
		out = append(out, p)
	}
	out = append(out, derivedMetrics...)
	sort.Strings(out)
	return out
}()

// resolveMetric maps a short name to a JSON path: the exact path, an op's
// latency ("cycle.p99" is latency_us.cycle.p99), or the one path it ends.
func resolveMetric(name string) (string, bool) {
	if op, pct, ok := csvLatency(name); ok {
		name = "latency_us." + op + "." + pct
	}
	var suffix []string
	for _, p := range metricPaths {
		if p == name {
			return p, true
		}
		if p == "latency_us."+name {
			return p, true
		}
		if strings.HasSuffix(p, "."+name) {
			suffix = append(suffix, p)
		}
	}
	if len(suffix) == 1 {
		return suffix[0], true
	}
	return "", false
}

// Metric reads a numeric field of r by (short) name; an error when the
// name is unknown or the run has no such field (an op it never recorded).
func Metric(r schema.Run, name string) (float64, error) {
	p, ok := resolveMetric(name)
	if !ok && strings.HasPrefix(name, "extra.") {
		p, ok = name, true // backend-specific fields: by full path only
	}
	if !ok {
		return 0, errUnknownMetric(name)
	}
	v, ok := flatten(r)[p]
	if !ok {
		return 0, fmt.Errorf("run %q has no %s", r.Name, p)
	}
	return v, nil
}

func errUnknownMetric(name string) error {
	return fmt.Errorf("unknown metric %q (e.g. cycle.p99, acquire.p50, cycles_per_s, attempts_per_s, violations, stale_overlaps, errors, split_brain_rate)", name)
}

// derivedMetrics are metrics made of a run's fields, as its CSV has them:
// error_rate = (errors + timeouts + release_errors) / attempts,
// attempts_per_cycle = attempts / cycles (each attempt sends its acquire
// and its release to every master, so commands per cycle follow from it).
var derivedMetrics = []string{"error_rate", "attempts_per_cycle"}

// flatten is a Run's numeric JSON fields as dotted paths, with the derived
// metrics.
func flatten(r schema.Run) map[string]float64 {
	out := r.Fields()
	out["error_rate"] = render.ErrorRate(r)
	if c := r.Counts; c.Cycles > 0 {
		out["attempts_per_cycle"] = float64(c.Attempts) / float64(c.Cycles)
	}
	return out
}

// csvLatency reads a CSV latency column, "acquire_p99_us", as op and
// percentile.
func csvLatency(name string) (op, pct string, ok bool) {
	rest, ok := strings.CutSuffix(name, "_us")
	if !ok {
		return "", "", false
	}
	i := strings.LastIndex(rest, "_")
	if i < 0 || !schema.KnownOp(rest[:i]) {
		return "", "", false
	}
	return rest[:i], rest[i+1:], true
}
