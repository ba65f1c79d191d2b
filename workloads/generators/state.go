package generators

import (
	"context"
	"sync"
)

// state is the run's keys as the watch has delivered them: the latest
// value of every key seen (kept after its deletion: a generator's result
// outlives its lease) and the members whose keys were deleted. Waiters are
// woken by closing changed on every event.
type state struct {
	mu      sync.Mutex
	vals    map[string][]byte
	gone    map[string]bool
	changed chan struct{}
}

func newState() *state {
	return &state{vals: map[string][]byte{}, gone: map[string]bool{}, changed: make(chan struct{})}
}

func (s *state) put(key string, val []byte) {
	s.mu.Lock()
	s.vals[key] = val
	s.wake()
	s.mu.Unlock()
}

func (s *state) del(key string) {
	s.mu.Lock()
	s.gone[key] = true
	s.wake()
	s.mu.Unlock()
}

func (s *state) wake() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *state) get(key string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vals[key]
	return v, ok
}

// wait calls cond under the lock on every change until it returns true or
// ctx ends.
func (s *state) wait(ctx context.Context, cond func(vals map[string][]byte, gone map[string]bool) bool) error {
	for {
		s.mu.Lock()
		ok, ch := cond(s.vals, s.gone), s.changed
		s.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
		}
	}
}
