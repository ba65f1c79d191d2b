package gate

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"

	"github.com/lockbench/lockbench/results/render"
	"github.com/lockbench/lockbench/results/schema"
)

// TestEveryCSVColumnIsAMetric: each numeric column of the runs CSV names a
// metric the gate reads, with the CSV's value (error_rate included).
func TestEveryCSVColumnIsAMetric(t *testing.T) {
	s, err := schema.ReadSummary("../schema/testdata/v1/compare-ceiling.json")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.WriteCSV(&buf, s.Runs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	text := map[string]bool{"name": true, "backend": true, "client": true, "mux": true, "workload": true,
		"interrupted": true, "server_cpu_source": true}
	for i, col := range rows[0] {
		if text[col] {
			continue
		}
		if _, err := ParseThreshold(col + "<1"); err != nil {
			t.Errorf("column %s: %v", col, err)
			continue
		}
		for j, r := range s.Runs {
			cell := rows[j+1][i]
			want, err := strconv.ParseFloat(cell, 64)
			if cell == "" || err != nil {
				continue
			}
			got, err := Metric(r, col)
			if err != nil || got != want {
				t.Errorf("run %s column %s: gate reads %v (%v), the CSV %v", r.Name, col, got, err, want)
			}
		}
	}
}

// TestThresholdValue: a threshold compares with a finite number; NaN
// compares unequal to everything and would pass any run.
func TestThresholdValue(t *testing.T) {
	for _, expr := range []string{"violations!=NaN", "cycles_per_s>nan", "cycle.p99<Infms", "cycle.p99<+Inf", "error_rate<=-inf"} {
		if _, err := ParseThreshold(expr); err == nil {
			t.Errorf("%q accepted", expr)
		}
	}
}

// TestWithUnit: every number the gate prints carries its unit.
func TestWithUnit(t *testing.T) {
	for _, tc := range []struct {
		path string
		v    float64
		want string
	}{
		{"latency_us.cycle.p99", 850, "850 µs"},
		{"latency_us.cycle.p99", 2500, "2.50 ms"},
		{"latency_us.cycle.p99", 1.5e6, "1.50 s"},
		{"throughput.cycles_per_s", 12345.6, "12346 /s"},
		{"cost.client_cpu_us_per_cycle", 41.27, "41.3 µs/cycle"},
		{"cost.client_writes_per_cycle", 0.5, "0.50 /cycle"},
		{"attempts_per_cycle", 1.25, "1.25 /cycle"},
		{"error_rate", 0.012, "1.20 %"},
		{"split_brain_rate", 0.5, "50.00 %"},
		{"counts.violations", 0, "0"},
	} {
		if got := withUnit(tc.path, tc.v); got != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.path, tc.v, got, tc.want)
		}
	}
}
