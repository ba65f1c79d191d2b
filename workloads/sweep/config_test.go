package sweep

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestZeroConfigIsDefaults: the zero Config runs with the defaults, and
// DefaultConfig says what they are.
func TestZeroConfigIsDefaults(t *testing.T) {
	d := DefaultConfig()
	base := lab.DefaultConfig()
	base.Workload.Duration, base.Workload.Warmup = 3*time.Second, time.Second
	want := Config{Base: base, Muxes: []string{lab.DefaultMux}, By: ByRate, Op: "cycle", SLO: 2 * time.Millisecond, Start: 200,
		Factor: 1.5, MaxSteps: 20, Refine: 2, Repeat: 3, MaxErrorRate: 0.001, IntervalRounds: 3, HostProbe: 2 * time.Second}
	if !reflect.DeepEqual(d, want) {
		t.Fatalf("DefaultConfig\n%+v\nwant\n%+v", d, want)
	}
	if err := (Config{}).Validate(); err != nil {
		t.Fatalf("zero Config: %v", err)
	}
	if w := (Config{By: ByWorkers}).withDefaults(); w.Start != 1 {
		t.Errorf("by workers starts at %v, want 1 worker", w.Start)
	}
	if c := (Config{Refine: NoRefine, MaxErrorRate: noErrors}); c.withDefaults().refine() != 0 || c.withDefaults().maxErrorRate() != 0 {
		t.Errorf("NoRefine, NoErrors: refine %d, max error rate %v", c.withDefaults().refine(), c.withDefaults().maxErrorRate())
	}
}

// TestConfigJSON: the summary's keys are lockbench/v1's sweep keys.
func TestConfigJSON(t *testing.T) {
	b, err := json.Marshal(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"base", "muxes", "by", "op", "slo", "start", "factor", "max_steps", "refine", "repeat", "max_error_rate", "interval_rounds", "host_probe"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no %q in %s", k, b)
		}
	}
	if len(m) != 13 { // and target_rate when set
		t.Errorf("%d keys: %s", len(m), b)
	}
}

// TestValidate: every refusal names its field and value.
func TestValidate(t *testing.T) {
	rated := DefaultConfig()
	rated.Base.Workload.Rate = 100
	tests := []struct {
		name  string
		cfg   Config
		field string
		want  string
	}{
		{"by", Config{By: "qps"}, "by", `by "qps": want rate or workers`},
		{"negative slo", Config{SLO: -time.Millisecond}, "slo", "slo -1ms: must be positive"},
		{"factor 1", Config{Factor: 1}, "factor", "factor 1: must be more than 1"},
		{"factor NaN", Config{Factor: math.NaN()}, "factor", "must be more than 1"},
		{"factor Inf", Config{Factor: math.Inf(1)}, "factor", "must be more than 1"},
		{"max steps", Config{MaxSteps: -1}, "max_steps", "max_steps -1: must be 1 to 100"},
		{"max steps beyond the bound", Config{MaxSteps: 1000000}, "max_steps", "max_steps 1000000: must be 1 to 100"},
		{"repeat beyond the bound", Config{Repeat: 101}, "repeat", "repeat 101: must be 1 to 100"},
		{"refine beyond the bound", Config{Refine: 1 << 40}, "refine", "must be at most 100"},
		{"interval rounds beyond the bound", Config{IntervalRounds: 101}, "interval_rounds", "interval_rounds 101: must be at most 100"},
		{"a host probe beyond the bound", Config{HostProbe: 2 * time.Minute}, "host_probe", "host_probe 2m0s: must be 0 to 1m0s"},
		{"a negative host probe", Config{HostProbe: -time.Second}, "host_probe", "host_probe -1s: must be 0 to 1m0s"},
		{"error rate 1", Config{MaxErrorRate: 1}, "max_error_rate", "max_error_rate 1: want a share in [0, 1)"},
		{"error rate NaN", Config{MaxErrorRate: math.NaN()}, "max_error_rate", "want a share"},
		{"half a worker", Config{By: ByWorkers, Start: 0.5}, "start", "start 0.5: stepping workers starts at 1 worker or more"},
		{"negative start", Config{Start: -5}, "start", "start -5: must be positive"},
		{"infinite start", Config{Start: math.Inf(1)}, "start", "must be positive"},
		{"a rate to sweep by rate", rated, "base.workload.rate", "base.workload.rate 100: a sweep by rate steps the rate itself"},
		{"negative target rate", Config{TargetRate: -1}, "target_rate", "target_rate -1: want cycles/s, positive (0: no plan)"},
		{"interval rounds", Config{IntervalRounds: -5}, "interval_rounds", "interval_rounds -5: must not be negative"},
		{"op never measured", Config{Op: "extend"}, "op", "op extend: no workload measures extend latency; want one of acquire, acquire_total, release, cycle"},
		{"op unknown", Config{Op: "lunch"}, "op", `op "lunch": want one of`},
		{"mux unknown", Config{Muxes: []string{"fanout", "telepathy"}}, "base.driver.mux", "telepathy"},
		{"the cell's own checks", Config{Base: func() lab.Config {
			c := DefaultConfig().Base
			c.Workload.Duration = -time.Second
			return c
		}()}, "base.workload.duration", "-1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			var fe *fielderr.Error
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate: %v, want %q", err, tt.want)
			}
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Fatalf("Validate: %#v, want a FieldError on %q", err, tt.field)
			}
		})
	}
}
