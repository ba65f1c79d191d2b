package sweep

import (
	"errors"
	"testing"
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
	"github.com/lockbench/lockbench/workloads/lab"
)

// TestLiteral: a command line's zero is zero, not the default: refused
// where no sweep runs with it, "none" for Refine and MaxErrorRate.
func TestLiteral(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*Config)
		want string // the error, "" for none
	}{
		{"zero slo", func(c *Config) { c.SLO = 0 }, "slo 0s: must be positive"},
		{"zero start", func(c *Config) { c.Start = 0 }, "start 0: must be positive"},
		{"zero factor", func(c *Config) { c.Factor = 0 }, "factor 0: must be more than 1"},
		{"zero max steps", func(c *Config) { c.MaxSteps = 0 }, "max_steps 0: must be at least 1"},
		{"negative refine", func(c *Config) { c.Refine = -1 }, "refine -1: must not be negative"},
		{"negative error rate", func(c *Config) { c.MaxErrorRate = -0.5 }, "max_error_rate -0.5: want a share in [0, 1)"},
		{"negative slo", func(c *Config) { c.SLO = -time.Second }, "slo -1s: must be positive"},
		{"negative interval rounds", func(c *Config) { c.IntervalRounds = -2 }, "interval_rounds -2: must not be negative"},
		{"negative host probe", func(c *Config) { c.HostProbe = -time.Second }, "host_probe -1s: must not be negative"},
		{"zero refine and error rate", func(c *Config) { c.Refine, c.MaxErrorRate = 0, 0 }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DefaultConfig()
			tc.set(&c)
			lit, err := c.Literal()
			if tc.want != "" {
				var fe *fielderr.Error
				if !errors.As(err, &fe) || err.Error() != tc.want {
					t.Fatalf("err %v, want a FieldError %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if lit.IntervalRounds != c.IntervalRounds {
				t.Errorf("interval rounds %d, given %d", lit.IntervalRounds, c.IntervalRounds)
			}
			if lit.Refine != NoRefine || lit.MaxErrorRate != noErrors || c.Refine != 0 {
				t.Errorf("literal refine %d, error rate %v (given %d): want NoRefine, NoErrors, the given config unchanged", lit.Refine, lit.MaxErrorRate, c.Refine)
			}
		})
	}
}

// TestValidateFirstStepAsCell: each mux's first step passes a cell's own
// checks (lab.Config.Validate): more workers than a process runs is
// refused before any server starts.
func TestValidateFirstStepAsCell(t *testing.T) {
	c := DefaultConfig()
	c.By, c.Start = ByWorkers, lab.MaxWorkers+1
	var fe *fielderr.Error
	if err := c.Validate(); !errors.As(err, &fe) || fe.Field != "base.workload.workers" {
		t.Fatalf("err %v, want a field error of base.workload.workers", err)
	}
	c.Start = 4
	if err := c.Validate(); err != nil {
		t.Fatalf("4 workers: %v", err)
	}
}

// TestLiteralZeroIsNone: a command line's zero rounds is no interval,
// its zero host probe no probe.
func TestLiteralZeroIsNone(t *testing.T) {
	for _, c := range []struct {
		name string
		zero func(*Config)
		none func(Config) bool
	}{
		{"interval rounds", func(c *Config) { c.IntervalRounds = 0 }, func(c Config) bool { return c.IntervalRounds == NoInterval && c.rounds() == 0 }},
		{"host probe", func(c *Config) { c.HostProbe = 0 }, func(c Config) bool { return c.HostProbe == NoHostProbe && c.hostProbe() == 0 }},
	} {
		cfg := DefaultConfig()
		c.zero(&cfg)
		lit, err := cfg.Literal()
		if err != nil || !c.none(lit) {
			t.Errorf("%s: %+v, %v: want none", c.name, lit, err)
		}
	}
}
