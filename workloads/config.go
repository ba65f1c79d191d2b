// Package workloads drives lock cycles: which keys (generators), when
// (pacing), with what retries, and the run loop that times every attempt
// into per-worker recorders. Durations serialise as nanoseconds.
package workloads

import (
	"time"

	"github.com/lockbench/lockbench/results/fielderr"
)

// Config is one workload's parameters. It serialises into results.
type Config struct {
	Workload   string        "json:\"workload\" flag:\"workload\" help:\"key pattern: uncontended, contended or zipf (lockbench workloads describes each)\""
	Keys       int           `json:"keys" flag:"keys" help:"hot keys shared by all workers (contended workloads)"`
	Workers    int           `json:"workers" flag:"workers" help:"concurrent workers, each one lock cycle at a time"`
	Duration   time.Duration `json:"duration" flag:"duration" help:"measured time per run"`
	Warmup     time.Duration `json:"warmup" flag:"warmup" help:"unrecorded time before measuring"`
	Hold       time.Duration `json:"hold" flag:"hold" help:"time spent inside the critical section"`
	RetryDelay time.Duration `json:"retry_delay" flag:"retry-delay" help:"a failed attempt is retried after a random delay in [0, retry-delay)"`
	Tries      int           `json:"tries" flag:"tries" help:"attempts per cycle before giving up"`
	// Prefix starts every key, so runs against shared masters do not collide.
	Prefix string `json:"prefix" flag:"prefix" help:"start of every key: give each process its own when several share the masters"`
	// Rate is cycles per second across all workers on a constant-throughput
	// schedule (open loop); 0 is the closed loop.
	Rate float64 `json:"rate" flag:"rate" help:"open loop: cycles/s across all workers on a fixed schedule, latency from the intended start (0: closed loop)"`
	// Ramp raises the rate (closed loop: the workers) linearly from zero;
	// it runs inside the warmup, which is extended to cover it.
	Ramp time.Duration `json:"ramp" flag:"ramp" help:"raise the rate (closed loop: the workers) linearly over this time, inside the warmup"`
	// ZipfS is the zipf workload's exponent: key i is drawn ∝ 1/(i+1)^s.
	ZipfS float64 `json:"zipf_s" flag:"zipf-s" help:"zipf workload: exponent s, key i drawn with weight 1/(i+1)^s"`
	// HoldDist shapes the hold time around Hold: fixed | uniform | exp.
	HoldDist string `json:"hold_dist" flag:"hold-dist" help:"hold time distribution with mean --hold: fixed|uniform|exp"`
	// StallAfter is how long the window may go without a grant before
	// that is reported as a stall; 0: StallThreshold's automatic value.
	StallAfter time.Duration `json:"stall_after,omitempty" flag:"stall-after" help:"report a stall when no lock is granted for this long (0: the longest of 1s, 10 holds, 10/rate)"`
	// ReleaseRetry tries a release that failed again while the lease is
	// valid (release.go); off: the published algorithm releases once.
	ReleaseRetry bool `json:"release_retry,omitempty" flag:"release-retry" help:"retry a failed release (at most 3 times, while the lease is valid), so one lost reply does not leave a key held for its TTL"`
}

// DefaultConfig is what `lockbench run` uses without flags.
func DefaultConfig() Config {
	return Config{
		Workload: "uncontended", Keys: 1, Workers: 64, Duration: 10 * time.Second, Warmup: 2 * time.Second,
		Hold: 0, RetryDelay: 5 * time.Millisecond, Tries: 100, Prefix: "lockbench",
		ZipfS: 1.1, HoldDist: "fixed",
	}
}

// MaxKeys bounds Keys: each key is a string held in memory (and a zipf
// workload's weight), so a typo such as 2000000000 would allocate until the
// process dies. MaxRate bounds Rate: a slot one nanosecond apart.
const (
	maxKeys = 10_000_000
	maxRate = 1e9
)

// Validate reports the first bad parameter, naming its flag.
func (c Config) Validate() error {
	if _, ok := generators[c.Workload]; !ok {
		return fielderr.Invalid("workload", c.Workload, "unknown (have %s)", joinNames())
	}
	switch {
	case c.Workers < 1:
		return fielderr.Invalid("workers", c.Workers, "must be at least 1")
	case c.Keys > maxKeys:
		return fielderr.Invalid("keys", c.Keys, "at most %d", maxKeys)
	case c.Duration <= 0:
		return fielderr.Invalid("duration", c.Duration, "must be positive")
	case c.Warmup < 0:
		return fielderr.Invalid("warmup", c.Warmup, "must not be negative")
	case c.Hold < 0:
		return fielderr.Invalid("hold", c.Hold, "must not be negative")
	case c.RetryDelay < 0:
		return fielderr.Invalid("retry_delay", c.RetryDelay, "must not be negative")
	case c.Tries < 1:
		return fielderr.Invalid("tries", c.Tries, "must be at least 1")
	case c.StallAfter != 0 && c.StallAfter < minStallAfter:
		return fielderr.Invalid("stall_after", c.StallAfter, "at least %v (0: automatic), the stall watcher's resolution ×10", minStallAfter)
	}
	if err := validatePacing(c); err != nil {
		return err
	}
	if _, err := newHoldSampler(c.HoldDist, c.Hold); err != nil {
		return err
	}
	return generators[c.Workload].validate(c)
}
