// Package monitoring holds Prometheus and Grafana for watching a lockbench
// run: docker-compose.yml, prometheus.yml, Grafana's provisioning and the
// lockbench dashboard. The test checks, without a Grafana, that every query
// of the dashboard names only metrics the exporter (results/prom) serves.
package monitoring

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/lockbench/lockbench/results/prom"
	"github.com/lockbench/lockbench/results/record"
	"github.com/lockbench/lockbench/results/schema"
)

const dashboardFile = "grafana/dashboards/lockbench.json"

// exported is every series name the exporter serves, histogram suffixes
// included.
func exported(t *testing.T) map[string]bool {
	t.Helper()
	e := prom.New()
	c := e.Cell(prom.Labels{Backend: "redlock", Client: "goredis", Mux: "fanout", Workload: "contended", Masters: 5}, 1)
	reg := record.NewRegistry(false)
	reg.NewRecorder().Record(schema.OpCycle, schema.OK, 0, 0, 1000)
	c.Observe(reg.Tick(), 0)
	c.ObserveMasters([]schema.MasterErrors{{Index: 1, Master: "127.0.0.1:7001", Errors: 1}})
	r := prometheus.NewPedanticRegistry()
	r.MustRegister(e)
	fams, err := r.Gather()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, f := range fams {
		names[f.GetName()] = true
		if f.GetType() == dto.MetricType_HISTOGRAM {
			for _, s := range []string{"_bucket", "_sum", "_count"} {
				names[f.GetName()+s] = true
			}
		}
	}
	return names
}

// queries are the dashboard's PromQL expressions: panel targets and
// template variable queries.
func queries(t *testing.T, raw []byte) []string {
	t.Helper()
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
		Templating struct {
			List []struct {
				Definition string `json:"definition"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	var out []string
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			out = append(out, tg.Expr)
		}
	}
	for _, v := range d.Templating.List {
		out = append(out, v.Definition)
	}
	return out
}

var (
	// What is not a metric name: label matchers, strings, ranges, grouping
	// clauses, numbers.
	stripped = regexp.MustCompile(`\{[^}]*\}|"[^"]*"|\[[^\]]*\]|\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)|\b\d+(\.\d+)?\b`)
	ident    = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*`)
	keywords = []string{"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless", "offset"}
)

// metricNames are the identifiers of expr that name series: not functions
// (followed by "("), not keywords, not label names in label_values(m, label).
func metricNames(expr string) []string {
	expr = stripped.ReplaceAllString(expr, " ")
	var out []string
	for _, loc := range ident.FindAllStringIndex(expr, -1) {
		name, rest := expr[loc[0]:loc[1]], strings.TrimLeft(expr[loc[1]:], " ")
		before := strings.TrimRight(expr[:loc[0]], " ")
		switch {
		case strings.HasPrefix(rest, "("), slices.Contains(keywords, name):
		case strings.HasSuffix(before, ",") && strings.HasPrefix(strings.TrimSpace(expr), "label_values"):
		default:
			out = append(out, name)
		}
	}
	return out
}

// checkQueries: every query names at least one metric, and only exported ones.
func checkQueries(qs []string, have map[string]bool) error {
	for _, q := range qs {
		names := metricNames(q)
		if len(names) == 0 {
			return fmt.Errorf("query names no metric: %s", q)
		}
		for _, n := range names {
			if !have[n] {
				return fmt.Errorf("query names %q, which lockbench does not export: %s", n, q)
			}
		}
	}
	return nil
}

func TestDashboardQueriesNameExportedMetrics(t *testing.T) {
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	have := exported(t)
	qs := queries(t, raw)
	if err := checkQueries(qs, have); err != nil {
		t.Error(err)
	}
	// Every exported lockbench metric is on the dashboard somewhere.
	used := map[string]bool{}
	for _, q := range qs {
		for _, n := range metricNames(q) {
			used[strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_sum"), "_count")] = true
		}
	}
	for _, m := range []string{prom.MetricCycles, prom.MetricAttempts, prom.MetricViolations, prom.MetricDuration,
		prom.MetricWorkers, prom.MetricReleases, prom.MetricGaveUp, prom.MetricMasterErrs} {
		if !used[m] {
			t.Errorf("dashboard does not show %s", m)
		}
	}
}

// TestCheckerCatchesMisspelling: the check above can fail.
func TestCheckerCatchesMisspelling(t *testing.T) {
	have := exported(t)
	for _, q := range []string{
		`sum(rate(lockbench_cycle_total{mux=~"$mux"}[$__rate_interval]))`,
		`histogram_quantile(0.99, sum by (le) (rate(lockbench_op_duration_second_bucket[1m])))`,
		`sum(lockbench_violations_total) / sum(lockbench_attempt_total)`,
		`label_values(lockbench_cycle_total, backend)`,
		`sum(rate({__name__="x"}[1m]))`,
	} {
		if err := checkQueries([]string{q}, have); err == nil {
			t.Errorf("misspelt query passed: %s", q)
		}
	}
	if err := checkQueries([]string{`histogram_quantile(0.5, sum by (le, op) (rate(lockbench_op_duration_seconds_bucket{op="cycle"}[5m])))`,
		`label_values(lockbench_cycles_total, backend)`}, have); err != nil {
		t.Errorf("good query refused: %v", err)
	}
}

// TestComposeFile: docker compose would accept the file (compose-go loads it
// as `docker compose config` does) and it mounts what Grafana needs.
func TestComposeFile(t *testing.T) {
	opts, err := cli.NewProjectOptions([]string{"docker-compose.yml"}, cli.WithName("lockbench-monitoring"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	for _, name := range []string{"prometheus", "grafana"} {
		s, ok := p.Services[name]
		if !ok {
			t.Fatalf("no %s service", name)
		}
		for _, v := range s.Volumes {
			if _, err := os.Stat(v.Source); err != nil {
				t.Errorf("%s mounts %s: %v", name, v.Source, err)
			}
		}
	}
}
