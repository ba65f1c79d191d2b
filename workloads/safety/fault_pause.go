package safety

import (
	"math"
	"time"

	"github.com/lockbench/lockbench/drivers/backends"
)

// FaultPause stops the holder between its grant and its write for
// ratio × TTL, as a GC pause or a page fault does.
const FaultPause = "pause"

func init() {
	registerFault(fault{
		Name:   FaultPause,
		Means:  "the holder stops between its entry and exit writes for ratio × TTL (a GC pause)",
		Ratios: Ratios{0.1, 0.5, 0.9, 1.1, 2},
		// A backend whose lease outlives an in-process pause (kept alive
		// by its library: a ZooKeeper session, a PostgreSQL session, a
		// lock extended from a goroutine of its own) has its holder
		// silenced for the pause, as a stopped process is.
		Skip:     func(backends.Backend) string { return "" },
		Silenced: outlivesPause,
		Pause:    func(c Config, ratio float64) time.Duration { return time.Duration(ratio * float64(c.TTL)) },
		// While ⌈ratio⌉ holders pause, one more waits to be granted as the
		// oldest lease lapses.
		WorkersPerKey: func(ratio float64) int { return int(math.Ceil(ratio)) + 1 },
		// One grant per pause while the pause is shorter than the TTL or
		// the lock outlives it, else one per TTL (a waiting worker is
		// granted as each paused holder's lease lapses).
		Cycle: func(c Config, b backends.Backend, ratio float64) time.Duration {
			if ratio < 1 || !lapses(b) {
				return time.Duration(ratio*float64(c.TTL)) + c.RetryDelay/2 + 5*time.Millisecond
			}
			return c.TTL + c.RetryDelay/2
		},
	})
}

// outlivesPause: b's lease is kept alive by its client library, so an
// in-process pause of the holder does not let it lapse. etcd's is not
// (the sweep's etcd leases are not kept alive), nor a key on the
// Sentinel's master.
func outlivesPause(b backends.Backend) bool {
	return b.Extends || (b.On != backends.Redis && b.On != backends.Etcd && b.On != backends.Sentinel)
}

// lapses: b's lock ends when its holder falls silent for longer than the
// TTL (a key's expiry, a lease, a session timeout); a PostgreSQL advisory
// lock lives with its session, which a silent client keeps open.
func lapses(b backends.Backend) bool { return b.On != backends.Postgres }
