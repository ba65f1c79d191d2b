package delayline

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// fdSleeper waits on a non-blocking timerfd through the runtime's poller.
type fdSleeper struct {
	f   *os.File
	fd  int
	buf [8]byte
}

// newSleeper is a timerfd sleeper, or the runtime timer if none can be made.
func newSleeper() sleeper {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return newTimerSleeper()
	}
	return &fdSleeper{f: os.NewFile(uintptr(fd), "timerfd"), fd: fd}
}

func (s *fdSleeper) until(t time.Time) {
	wait := time.Until(t)
	if wait <= 0 {
		return
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(wait))}
	if unix.TimerfdSettime(s.fd, 0, &spec, nil) != nil {
		time.Sleep(time.Until(t))
		return
	}
	if _, err := s.f.Read(s.buf[:]); err != nil {
		time.Sleep(time.Until(t))
	}
}

func (s *fdSleeper) close() { _ = s.f.Close() }
