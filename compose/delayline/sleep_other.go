//go:build !linux

package delayline

func newSleeper() sleeper { return newTimerSleeper() }
