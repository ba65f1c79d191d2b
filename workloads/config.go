// Package workloads drives lock cycles: which keys (generators), when
// (pacing), with what retries, and the run loop that times every attempt
// into per-worker recorders. Durations serialise as nanoseconds.
package workloads

import (
	"fmt"
	"time"
)

// Config is one workload's parameters. It serialises into results.
type Config struct {
	Workload   string        `json:"workload"`
	Keys       int           `json:"keys"`
	Workers    int           `json:"workers"`
	Duration   time.Duration `json:"duration"`
	Warmup     time.Duration `json:"warmup"`
	Hold       time.Duration `json:"hold"`
	RetryDelay time.Duration `json:"retry_delay"`
	Tries      int           `json:"tries"`
	// Prefix starts every key, so runs against shared masters do not collide.
	Prefix string `json:"prefix"`
	// Rate is cycles per second across all workers on a constant-throughput
	// schedule (open loop); 0 is the closed loop.
	Rate float64 `json:"rate"`
	// Ramp raises the rate (closed loop: the workers) linearly from zero;
	// it runs inside the warmup, which is extended to cover it.
	Ramp time.Duration `json:"ramp"`
	// ZipfS is the zipf workload's exponent: key i is drawn ∝ 1/(i+1)^s.
	ZipfS float64 `json:"zipf_s"`
	// HoldDist shapes the hold time around Hold: fixed | uniform | exp.
	HoldDist string `json:"hold_dist"`
}

// DefaultConfig is what `lockbench run` uses without flags.
func DefaultConfig() Config {
	return Config{
		Workload: "uncontended", Keys: 1, Workers: 64, Duration: 10 * time.Second, Warmup: 2 * time.Second,
		Hold: 0, RetryDelay: 5 * time.Millisecond, Tries: 100, Prefix: "lockbench",
		ZipfS: 1.1, HoldDist: "fixed",
	}
}

// Validate reports the first bad parameter, naming its flag.
func (c Config) Validate() error {
	if _, ok := generators[c.Workload]; !ok {
		return fmt.Errorf("--workload %q: unknown (have %s)", c.Workload, joinNames())
	}
	switch {
	case c.Workers < 1:
		return fmt.Errorf("--workers %d: must be at least 1", c.Workers)
	case c.Duration <= 0:
		return fmt.Errorf("--duration %v: must be positive", c.Duration)
	case c.Warmup < 0:
		return fmt.Errorf("--warmup %v: must not be negative", c.Warmup)
	case c.Hold < 0:
		return fmt.Errorf("--hold %v: must not be negative", c.Hold)
	case c.RetryDelay < 0:
		return fmt.Errorf("--retry-delay %v: must not be negative", c.RetryDelay)
	case c.Tries < 1:
		return fmt.Errorf("--tries %d: must be at least 1", c.Tries)
	}
	if err := validatePacing(c); err != nil {
		return err
	}
	if _, err := newHoldSampler(c.HoldDist, c.Hold); err != nil {
		return err
	}
	return generators[c.Workload].validate(c)
}
