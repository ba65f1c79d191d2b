package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lockbench/lockbench/results/schema"
)

// Options configure a CI gate.
type Options struct {
	Thresholds []Threshold
	// ThroughputTol and LatencyTol are the relative changes of cycles/s
	// (down) and of LatencyOp's p99 (up) against the baseline that are
	// accepted (0.10 = 10 %).
	ThroughputTol float64 `flag:"throughput-tol" help:"accepted relative drop of cycles/s vs the baseline"`
	LatencyTol    float64 `flag:"latency-tol" help:"accepted relative rise of p99 vs the baseline"`
	// CPUTol is the accepted rise of client and server CPU µs per cycle,
	// CountTol of writes, reads, allocations and attempts per cycle: these
	// move little with the neighbours, so their tolerances are tighter.
	CPUTol   float64 `flag:"cpu-tol" help:"accepted relative rise of client and server CPU µs per cycle"`
	CountTol float64 `flag:"count-tol" help:"accepted relative rise of writes, reads, allocs and attempts per cycle"`
	// LatencyOp's p99 is the latency compared against the baseline.
	LatencyOp string `flag:"op" help:"op whose p99 is compared with the baseline: acquire|acquire_total|release|cycle|extend"`
	// Metrics are more metrics to compare with the baseline, each
	// "NAME" or "NAME=TOL" (any metric a threshold takes, e.g.
	// "error_rate=0.5", "acquire_p999_us=0.3"; without TOL, ThroughputTol).
	Metrics []string `flag:"metric,array" help:"also compare METRIC[=TOL] with the baseline (any threshold metric, e.g. error_rate, acquire.p999)"`
	// Alpha bounds the chance that the gate calls a change a regression
	// (or a pass) wrongly, over all the metrics it judges (Holm).
	Alpha float64 `flag:"alpha" help:"chance of a wrong verdict over all metrics judged (Holm-corrected)"`
	// StrictEnv refuses a baseline measured in another environment.
	StrictEnv bool `flag:"strict-env" help:"refuse a baseline from another environment (CPU, cores, kernel, server version, config)"`
}

// DefaultOptions: 10 % throughput, 20 % p99 of cycle, 10 % CPU per
// cycle, 5 % writes/reads/allocs/attempts per cycle, α = 0.05 (docs/gate.md
// shows the noise these were fitted to).
func DefaultOptions() Options {
	return Options{ThroughputTol: 0.10, LatencyTol: 0.20, CPUTol: 0.10, CountTol: 0.05, LatencyOp: "cycle", Alpha: 0.05}
}

// Validate refuses options no verdict can be made with: a NaN tolerance
// compares false with everything, so it would pass any change.
func (o Options) Validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"ThroughputTol", o.ThroughputTol}, {"LatencyTol", o.LatencyTol}, {"CPUTol", o.CPUTol}, {"CountTol", o.CountTol}} {
		if err := checkTol(f.v); err != nil {
			return fieldErr(f.name, fmt.Sprint(f.v), "%v", err)
		}
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fieldErr("Alpha", fmt.Sprint(o.Alpha), "want a value in (0, 1)")
	}
	if !schema.KnownOp(o.LatencyOp) {
		return fieldErr("LatencyOp", fmt.Sprintf("%q", o.LatencyOp), "want one of %s", schema.OpNames())
	}
	_, err := o.judged()
	return err
}

func checkTol(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("want a finite tolerance of 0 or more (0.10 = 10 %%)")
	}
	return nil
}

// judgedMetric is one metric compared with the baseline.
type judgedMetric struct {
	name, path   string
	tol          float64
	higherBetter bool
}

// higherBetter are the metrics where a fall is the regression.
var higherBetter = map[string]bool{"throughput.cycles_per_s": true, "throughput.attempts_per_s": true,
	"fairness": true, "extra.vs_sequential": true, "extra.of_ceiling": true}

// judged are the metrics compared with the baseline, those that do not
// move with the neighbours first: per-cycle costs, then cycles/s and p99,
// then Metrics.
func (o Options) judged() ([]judgedMetric, error) {
	out := []judgedMetric{
		{name: "client_cpu_us_per_cycle", tol: o.CPUTol},
		{name: "server_cpu_us_per_cycle", tol: o.CPUTol},
		{name: "client_writes_per_cycle", tol: o.CountTol},
		{name: "client_reads_per_cycle", tol: o.CountTol},
		{name: "cost.allocs_per_cycle", tol: o.CountTol},
		{name: "attempts_per_cycle", tol: o.CountTol},
		{name: "cycles_per_s", tol: o.ThroughputTol},
		{name: o.LatencyOp + ".p99", tol: o.LatencyTol},
	}
	for _, m := range o.Metrics {
		name, tolText, hasTol := strings.Cut(m, "=")
		jm := judgedMetric{name: strings.TrimSpace(name), tol: o.ThroughputTol}
		if hasTol {
			v, err := strconv.ParseFloat(strings.TrimSpace(tolText), 64)
			if err == nil {
				err = checkTol(v)
			}
			if err != nil {
				return nil, fieldErr("Metrics", fmt.Sprintf("%q", m), "bad tolerance: want NAME=TOL, TOL a fraction (0.10 = 10 %%)")
			}
			jm.tol = v
		}
		out = append(out, jm)
	}
	at := map[string]int{} // path → its place in uniq: a later tolerance wins
	var uniq []judgedMetric
	for _, m := range out {
		p, ok := resolveMetric(m.name)
		if !ok {
			return nil, fieldErr("Metrics", fmt.Sprintf("%q", m.name), "%v", errUnknownMetric(m.name))
		}
		m.path, m.higherBetter = p, higherBetter[p]
		if i, ok := at[p]; ok {
			uniq[i].tol = m.tol
			continue
		}
		at[p] = len(uniq)
		uniq = append(uniq, m)
	}
	return uniq, nil
}
