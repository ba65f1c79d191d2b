package slow

import "time"

// NodeTimeout is an opener's per-master timeout for tests whose subject is
// not timeouts: idle scaled for the machine's load (a 200 ms
// timeout timed out every master at load average 7 on 2 CPUs), and at least
// a tenth of the lock's ttl, because the 1-minute load average lags a burst
// (a 50 ms timeout at a load average still low timed out an Extend, and a
// release that times out leaves a 10 s lock to expire while 64 workers
// wait); kept under a third of the ttl so the config stays valid.
func NodeTimeout(idle, ttl time.Duration) time.Duration {
	return min(max(D(idle), ttl/10), max(ttl/3, idle))
}
