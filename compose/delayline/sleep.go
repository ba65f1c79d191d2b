package delayline

import (
	"syscall"
	"time"
)

// coarse is the granularity of the Go runtime's own timers where the
// process has nothing else to run: its poller sleeps in whole
// milliseconds, so a 500 µs timer fires after 1 ms or more, which would
// double a sub-millisecond distance.
const coarse = 2 * time.Millisecond

// sleepUntil returns at t: the bulk of a long wait on timer (cheap, and
// early enough however the runtime rounds it), the last stretch in
// nanosleep, which blocks only this goroutine's thread and wakes within
// the kernel's timer slack (~50 µs).
func sleepUntil(t time.Time, timer *time.Timer) {
	wait := time.Until(t)
	if wait <= 0 {
		return
	}
	if wait > coarse {
		timer.Reset(wait - coarse)
		<-timer.C
		if wait = time.Until(t); wait <= 0 {
			return
		}
	}
	ts := syscall.NsecToTimespec(int64(wait))
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}
