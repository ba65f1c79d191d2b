// Package workloads drives lock cycles: which keys (generators), when
// (pacing), with what retries, and the run loop that times every attempt
// into per-worker recorders. Durations serialise as nanoseconds.
package workloads

import (
	"time"

	"github.com/lockbench/lockbench/results"
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
		return results.Invalid("workload", c.Workload, "unknown (have %s)", joinNames())
	}
	switch {
	case c.Workers < 1:
		return results.Invalid("workers", c.Workers, "must be at least 1")
	case c.Duration <= 0:
		return results.Invalid("duration", c.Duration, "must be positive")
	case c.Warmup < 0:
		return results.Invalid("warmup", c.Warmup, "must not be negative")
	case c.Hold < 0:
		return results.Invalid("hold", c.Hold, "must not be negative")
	case c.RetryDelay < 0:
		return results.Invalid("retry_delay", c.RetryDelay, "must not be negative")
	case c.Tries < 1:
		return results.Invalid("tries", c.Tries, "must be at least 1")
	}
	if err := validatePacing(c); err != nil {
		return err
	}
	if _, err := newHoldSampler(c.HoldDist, c.Hold); err != nil {
		return err
	}
	return generators[c.Workload].validate(c)
}
