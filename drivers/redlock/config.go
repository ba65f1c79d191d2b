package redlock

import (
	"fmt"
	"time"
)

// Config is the algorithm's parameters. It serialises into results.
type Config struct {
	TTL         time.Duration `json:"ttl" flag:"ttl" help:"lock TTL (auto-release time)"`                        // lock auto-release time
	NodeTimeout time.Duration `json:"node_timeout" flag:"node-timeout" help:"per-master timeout of one command"` // per-master budget, small against TTL
	DriftFactor float64       `json:"drift_factor"`                                                              // clock drift as a fraction of TTL
	DriftMin    time.Duration `json:"drift_min"`                                                                 // added to the drift: Redis expires have ~1 ms resolution
}

// DefaultConfig is the Redlock post's parameters with a 10 s TTL.
func DefaultConfig() Config {
	return Config{TTL: 10 * time.Second, NodeTimeout: 50 * time.Millisecond, DriftFactor: 0.01, DriftMin: 2 * time.Millisecond}
}

// Drift is the clock-drift allowance subtracted from the validity:
// ttl × DriftFactor + DriftMin.
func (c Config) Drift() time.Duration {
	return time.Duration(float64(c.TTL)*c.DriftFactor) + c.DriftMin
}

// Validity is what a client may trust after an acquire that took elapsed:
// ttl − elapsed − drift.
func (c Config) Validity(elapsed time.Duration) time.Duration {
	return c.TTL - elapsed - c.Drift()
}

// quorumOf is the majority of n masters: n/2 + 1.
func quorumOf(n int) int { return n/2 + 1 }

// Validate reports the first parameter that cannot work.
func (c Config) Validate() error {
	switch {
	case c.TTL <= 0:
		return fmt.Errorf("ttl %v: must be positive", c.TTL)
	case c.NodeTimeout <= 0:
		return fmt.Errorf("node-timeout %v: must be positive", c.NodeTimeout)
	case c.TTL <= c.NodeTimeout:
		return fmt.Errorf("ttl %v: must be larger than node-timeout %v", c.TTL, c.NodeTimeout)
	case c.DriftFactor < 0 || c.DriftFactor >= 1:
		return fmt.Errorf("drift factor %v: must be in [0, 1)", c.DriftFactor)
	case c.Validity(0) <= 0:
		return fmt.Errorf("ttl %v: leaves no validity after drift %v", c.TTL, c.Drift())
	}
	return nil
}
