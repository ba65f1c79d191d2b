package record

import "time"

// Clock gives monotonic nanoseconds since the run's base time. Every
// timestamp of a run (recorder, referee, pacer) comes from one Clock, so
// they compare.
type Clock struct{ base time.Time }

// NewClock starts a clock at now.
func NewClock() Clock { return Clock{base: time.Now()} }

// Now is nanoseconds since the base (monotonic).
func (c Clock) Now() int64 { return int64(time.Since(c.base)) }

// At converts a time.Time (with its monotonic reading) to the clock.
func (c Clock) At(t time.Time) int64 { return int64(t.Sub(c.base)) }

// Time converts clock nanoseconds back to wall time.
func (c Clock) Time(ns int64) time.Time { return c.base.Add(time.Duration(ns)) }

// Base is the clock's zero.
func (c Clock) Base() time.Time { return c.base }
