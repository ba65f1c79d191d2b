package slow

import (
	"testing"
	"time"
)

// TestNodeTimeout: idle scaled by the load factor, at least a tenth of the
// ttl (the load average lags a burst), never a third of the ttl or more
// unless idle already is.
func TestNodeTimeout(t *testing.T) {
	const ms = time.Millisecond
	for _, c := range []struct {
		name      string
		factor    string
		idle, ttl time.Duration
		want      time.Duration
	}{
		{"idle machine, short ttl", "1", 50 * ms, 300 * ms, 50 * ms},
		{"idle machine, 10 s ttl: a tenth of it", "1", 50 * ms, 10 * time.Second, time.Second},
		{"loaded: scaled", "4", 50 * ms, 1500 * ms, 200 * ms},
		{"scaled past a tenth", "8", 200 * ms, 10 * time.Second, 1600 * ms},
		{"capped at a third of the ttl", "8", 50 * ms, 600 * ms, 200 * ms},
		{"idle above a third of the ttl", "1", 200 * ms, 300 * ms, 200 * ms},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(EnvVar, c.factor)
			if got := NodeTimeout(c.idle, c.ttl); got != c.want {
				t.Errorf("NodeTimeout(%v, %v) at factor %s = %v, want %v", c.idle, c.ttl, c.factor, got, c.want)
			}
		})
	}
}
