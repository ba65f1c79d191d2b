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
		Skip: func(b backends.Backend) string {
			switch {
			case b.Extends:
				return "it extends its lock from a goroutine of its own, which an in-process pause of the holder does not stop"
			case b.On == backends.Redis, b.On == backends.Etcd:
				return ""
			}
			// Measuring them needs the holder silenced (a proxy that drops
			// its session's traffic), which this sweep does not do yet.
			return "its lock lives on " + b.On.String() + ", whose lease does not lapse while an in-process holder pauses"
		},
		Pause: func(c Config, ratio float64) time.Duration { return time.Duration(ratio * float64(c.TTL)) },
		// While ⌈ratio⌉ holders pause, one more waits to be granted as the
		// oldest lease lapses.
		WorkersPerKey: func(ratio float64) int { return int(math.Ceil(ratio)) + 1 },
		// One grant per pause while the pause is shorter than the TTL, else
		// one per TTL (a waiting worker is granted as each paused holder's
		// lease lapses).
		Cycle: func(c Config, ratio float64) time.Duration {
			if ratio < 1 {
				return time.Duration(ratio*float64(c.TTL)) + c.RetryDelay/2 + 5*time.Millisecond
			}
			return c.TTL + c.RetryDelay/2
		},
	})
}
