package delayline

import "time"

// sleeper waits until a chunk is due. The Go runtime's own timers fire
// late where the process has nothing else to run (its poller sleeps in
// whole milliseconds: a 500 µs timer takes 1 ms or more, which would
// double a sub-millisecond distance), so on Linux a pipe waits on a
// timerfd of its own, which the poller wakes on at the kernel timer's
// resolution without holding a thread.
type sleeper interface {
	until(t time.Time)
	close()
}

// timerSleeper is the runtime timer: where there is no timerfd.
type timerSleeper struct{ t *time.Timer }

func newTimerSleeper() *timerSleeper {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &timerSleeper{t}
}

func (s *timerSleeper) until(t time.Time) {
	if wait := time.Until(t); wait > 0 {
		s.t.Reset(wait)
		<-s.t.C
	}
}

func (s *timerSleeper) close() { s.t.Stop() }
