package main

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/lockbench/lockbench/internal/exit"
	"github.com/lockbench/lockbench/internal/testenv"
	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
	"github.com/lockbench/lockbench/workloads/lab"
	"github.com/lockbench/lockbench/workloads/scenario"
	"github.com/lockbench/lockbench/workloads/sweep"
)

// TestMetricsEqualSummary: on real masters, after a contended cell with a
// warmup, the exporter's counters equal the summary's counts and its
// histograms the summary's latency counts: the warmup is in neither.
func TestMetricsEqualSummary(t *testing.T) {
	testenv.Servers(t)
	t.Parallel() // independent servers and files: overlaps the other parallel tests
	cpuBound(t)
	cfg := lab.DefaultRun()
	cfg.Topology.Redis.Masters = 3
	cfg.Workload.Workload, cfg.Workload.Keys, cfg.Workload.Workers = "contended", 2, 6
	cfg.Workload.Duration, cfg.Workload.Warmup = 2500*time.Millisecond, 700*time.Millisecond
	cfg.Workload.Tries = 3 // some cycles give up
	cfg.Quiet = true
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l, err := lab.Up(ctx, cfg.Topology, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	e := prom.New()
	m, err := l.Measure(ctx, cfg.Config, lab.Observers{Metrics: e}) // quiet: the exporter only
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e)
	fams, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{} // name{label} → value
	for _, f := range fams {
		for _, mt := range f.GetMetric() {
			key := f.GetName()
			for _, l := range mt.GetLabel() {
				if l.GetName() == "outcome" || l.GetName() == "op" {
					key += "{" + l.GetValue() + "}"
				}
			}
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				got[key] = mt.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				got[key] = mt.GetGauge().GetValue()
			case dto.MetricType_HISTOGRAM:
				got[key] = float64(mt.GetHistogram().GetSampleCount())
			}
		}
	}
	c := m.Run.Counts
	if c.Cycles == 0 || c.Busy+c.SplitBrain == 0 {
		t.Fatalf("cell measured too little to compare: %+v", c)
	}
	want := map[string]int64{
		prom.MetricCycles: c.Cycles, prom.MetricViolations: c.Violations, prom.MetricGaveUp: c.GaveUp,
		prom.MetricAttempts + "{acquired}": c.Acquired, prom.MetricAttempts + "{busy}": c.Busy,
		prom.MetricAttempts + "{split_brain}": c.SplitBrain, prom.MetricAttempts + "{timeout}": c.Timeouts,
		prom.MetricAttempts + "{error}":   c.Errors,
		prom.MetricReleases + "{timeout}": c.ReleaseErrors - int64(got[prom.MetricReleases+"{error}"]),
		prom.MetricWorkers:                0, // the cell ended
	}
	for _, op := range []string{"acquire", "acquire_total", "release", "cycle"} {
		want[prom.MetricDuration+"{"+op+"}"] = m.Run.LatencyUS[op].Count
	}
	for k, w := range want {
		if got[k] != float64(w) {
			t.Errorf("%s = %v, summary %d", k, got[k], w)
		}
	}
}

// TestTablesFit: every table kind lockbench prints by default fits 100
// columns, with the longest names and figures it prints.
func TestTablesFit(t *testing.T) {
	var outs []*schema.ScenarioOutcome
	for _, s := range scenario.All() {
		outs = append(outs, &schema.ScenarioOutcome{Scenario: s.Name, Violations: 123, Before: 12345, During: 12345, After: 12345,
			LongestOutageMS: 12345, RecoveryMS: 12345, Expected: s.Expect.Words})
	}
	sc := sweep.Config{Op: "acquire_total", SLO: 2 * time.Millisecond, By: sweep.ByRate}
	sweeps := []schema.Sweep{
		{Name: "redlock/rueidis/sequential/uncontended", Knee: 0, Steps: []schema.SweepStep{{Rate: 123456, CyclesPerS: 123456, P99US: 12345}}},
		{Name: "redlock/goredis/pipeline/contended", Knee: -1, Steps: []schema.SweepStep{{Rate: 200, Reason: "p99 3.2ms over the SLO 2ms; 12 errors/timeouts in 1234 attempts; kept up with 12% of the rate"}}},
	}
	for name, write := range map[string]func(*strings.Builder){
		"scenario": func(b *strings.Builder) { scenario.WriteFaultsTable(b, outs) },
		"sweep":    func(b *strings.Builder) { sweep.WriteKnees(b, sweeps, sc) },
	} {
		var b strings.Builder
		write(&b)
		for i, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			if n := utf8.RuneCountInString(line); n > render.TableWidth {
				t.Errorf("%s: line %d is %d columns: %q", name, i, n, line)
			}
		}
		if !strings.Contains(b.String(), "12345") {
			t.Errorf("%s: figures missing:\n%s", name, b.String())
		}
	}
}

// TestMetricsAddrBadInput: a malformed or taken --metrics-addr is bad
// input, before any server starts.
func TestMetricsAddrBadInput(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for _, addr := range []string{"9464", ln.Addr().String()} {
		for _, sub := range []string{"run", "compare", "sweep"} {
			_, stderr, code := cli(t, 30*time.Second, sub, "--metrics-addr", addr)
			if code != exit.Usage || !strings.Contains(stderr, "--metrics-addr") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%s --metrics-addr %s: exit %d, stderr %q: want exit 2, one line naming the flag", sub, addr, code, stderr)
			}
		}
	}
}
