package faults

import (
	"context"
	"fmt"
	"time"

	"github.com/lockbench/lockbench/compose/delayline"
)

// faultLine changes the delays of one master's path (0-based) on the delay
// line in front of the masters: delayline.Process.
type faultLine interface {
	Set(i int, up, down delayline.Leg) error
}

// latency adds f.MS ± f.Jitter ms to master's replies on the delay line
// (the request reaches the master, the answer is late), on top of the
// master's distance, for f.For; healing restores the distance. Chunks in
// flight keep their delay, so the added latency behaves as a longer wire,
// not a queue.
func (s *Schedule) latency(ctx context.Context, f Fault) {
	add := delayline.Leg{Delay: time.Duration(f.MS) * time.Millisecond, Jitter: time.Duration(f.Jitter) * time.Millisecond}
	s.eachLine(f, "inject", func(i int) error {
		up, down := s.distance(i).Legs()
		down.Delay, down.Jitter = down.Delay+add.Delay, down.Jitter+add.Jitter
		return s.t.Line.Set(i, up, down)
	})
	s.hold(ctx, f)
	s.eachLine(f, "heal", func(i int) error {
		up, down := s.distance(i).Legs()
		return s.t.Line.Set(i, up, down)
	})
}

// distance is master i's (0-based) distance when no fault is on it.
func (s *Schedule) distance(i int) delayline.Distance {
	if i < len(s.t.Distances) {
		return s.t.Distances[i]
	}
	return delayline.Distance{}
}

func (s *Schedule) eachLine(f Fault, action string, fn func(int) error) {
	for _, m := range f.Masters {
		if s.t.Line == nil {
			s.record(f, action, m, fmt.Errorf("no delay line for master %d", m))
			continue
		}
		s.record(f, action, m, fn(m-1))
	}
}
